import { integer } from '../config.parsers';
import { variable } from './variable';

/** Executors: machine heartbeats and the orphan reaper. */
export const EXECUTOR_VARIABLES = {
  orphanReaperIntervalS: variable({
    name: 'SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS',
    description: "seconds between passes of a project's orphan reaper (0 turns the background reaper off)",
    sensitive: false,
    parse: integer(0, 86400),
    default: 60,
  }),
  machineStaleS: variable({
    name: 'SERVICE_MACHINE_STALE_SECONDS',
    description: 'a registered machine without a heartbeat for this long is gone: its runs are orphaned and its worktrees await cleanup',
    sensitive: false,
    parse: integer(1, 7 * 86400),
    default: 300,
  }),
  orphanSessionIdleS: variable({
    name: 'SERVICE_ORPHAN_SESSION_IDLE_SECONDS',
    description: 'a run or worktree whose session is closed, or silent for this long, is orphaned',
    sensitive: false,
    parse: integer(1, 30 * 86400),
    default: 1800,
  }),
} as const;
