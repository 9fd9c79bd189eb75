import { LoggerService } from '@nestjs/common';
import { redactSecrets } from '../../../libs/secrets';
import { currentRequestId } from '../observability/request-context';

type Level = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Structured JSON logs, one object per line on stdout. Every line passes through
 * redactSecrets, so tokens, passwords and connection strings never reach a log; a
 * line written while a request is served carries that request's `request_id`.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly minLevel: Level = 'info',
    private readonly write: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

  log(message: unknown, ...rest: unknown[]) {
    this.emit('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.emit('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.emit('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.emit('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.emit('debug', message, rest);
  }

  private emit(level: Level, message: unknown, rest: unknown[]) {
    if (RANK[level] < RANK[this.minLevel]) return;
    // Nest passes the context as the last string argument.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level };
    if (context) entry.context = context;
    if (message !== null && typeof message === 'object' && !(message instanceof Error)) Object.assign(entry, message);
    else if (message instanceof Error) Object.assign(entry, { msg: message.message, stack: message.stack });
    else entry.msg = String(message);
    if (rest.length > 0) entry.extra = rest.map((r) => (r instanceof Error ? r.stack : r));
    // A line written while a request is served carries its id (also its X-Request-Id answer header).
    const requestId = currentRequestId();
    if (requestId && entry.request_id === undefined) entry.request_id = requestId;
    this.write(redactSecrets(JSON.stringify(entry)));
  }
}
