import { integer } from '../config.parsers';
import { variable } from './variable';

/** Sessions, file locks, context blocks and handoffs. */
export const WORK_VARIABLES = {
  fileLockTtlS: variable({
    name: 'SERVICE_FILE_LOCK_TTL_SECONDS',
    description: 'how long a file lock lasts unless renewed by claiming the file again',
    sensitive: false,
    parse: integer(60, 30 * 86400),
    default: 4 * 3600,
  }),
  sessionTimeoutS: variable({
    name: 'SERVICE_SESSION_TIMEOUT_SECONDS',
    description: 'a session silent (no heartbeat or call) for this long is closed by the sweeper',
    sensitive: false,
    parse: integer(60, 30 * 86400),
    default: 3600,
  }),
  sweepIntervalS: variable({
    name: 'SERVICE_SWEEP_INTERVAL_SECONDS',
    description: 'seconds between sweeps for silent sessions (0 turns the sweeper off)',
    sensitive: false,
    parse: integer(0, 86400),
    default: 60,
  }),
  contextBlockMaxBytes: variable({
    name: 'SERVICE_CONTEXT_BLOCK_MAX_BYTES',
    description: 'largest context block, in bytes of UTF-8; the newest and most important lines of each section are kept',
    sensitive: false,
    parse: integer(2048, 256 * 1024),
    default: 8192,
  }),
  handoffTtlS: variable({
    name: 'SERVICE_HANDOFF_TTL_SECONDS',
    description: 'how long a generated handoff stays valid for accept_handoff and for starting a session from its token',
    sensitive: false,
    parse: integer(3600, 90 * 86400),
    default: 3 * 86400,
  }),
} as const;
