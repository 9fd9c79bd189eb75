/** SQLSTATEs of a database that is down, going down, starting, full, or took too long. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '53000']);
/** Socket errors on the way to the database. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/**
 * A database that answers but has no room for the work now: the tenant's share of the pool stayed
 * taken for as long as the work could wait (`DatabaseBusyError`), or another writer held SQLite's
 * file past its busy timeout.
 */
const BUSY_CODES = new Set(['DATABASE_BUSY', 'SQLITE_BUSY']);
/**
 * pg's pool, full, gave no connection back within its connect timeout. It says this only of a
 * checkout that queued behind connections in use (a connection it could not open says
 * "Connection terminated due to connection timeout"), so the pool's connections were all busy.
 */
const POOL_FULL_MESSAGE = 'timeout exceeded when trying to connect';
/** TypeORM's word for a transaction whose connection died under it (the runner let it go on the connection's error). */
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);
/** What pg, its pool and TypeORM say when the connection is gone or was never had. */
const UNAVAILABLE_MESSAGES =
  /^(Query read timeout|Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end|Query runner already released)/;

type ErrorFields = { code?: unknown; message?: unknown; name?: unknown };

/** True when `error`, or an error it wraps (TypeORM's `driverError`, a `cause`), passes `test`. */
function anyCause(error: unknown, test: (fields: ErrorFields) => boolean): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    if (test(current as ErrorFields)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Up, but no room for the work now (`BUSY_CODES`, `POOL_FULL_MESSAGE`). */
function saysBusy({ code, message }: ErrorFields): boolean {
  return (typeof code === 'string' && BUSY_CODES.has(code)) || message === POOL_FULL_MESSAGE;
}

/** Down, going down, starting, unreachable, or not answering. */
function saysDown({ code, message, name }: ErrorFields): boolean {
  if (typeof name === 'string' && RELEASED_RUNNER_ERRORS.has(name)) return true;
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

/** True when `error` says the database is up but too busy to take the work now. */
export function isDatabaseBusy(error: unknown): boolean {
  return anyCause(error, saysBusy);
}

/**
 * True when `error` says the database could not serve the request now (refused, reset, timed out,
 * shutting down or starting up, no free connection, busy) rather than that the request was wrong
 * or Baton has a bug: the request may be tried again as it is.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(error, (fields) => saysBusy(fields) || saysDown(fields));
}

/** A change in whether a database answers: reported once when it stops, once when it is back. */
export type AvailabilityChange = { state: 'down'; database: string; reason: string } | { state: 'up'; database: string; downMs: number; failures: number };

/**
 * Whether each database Baton works on answers, as its units of work find out: the first failure
 * that says the database is unavailable reports it down, the first success after that reports it
 * back with how long it was down and how many units of work failed meanwhile. So an outage is two
 * log lines, however many requests it fails.
 */
export class Availability {
  private readonly down = new Map<string, { since: number; failures: number }>();

  constructor(private readonly report: (change: AvailabilityChange) => void = () => undefined) {}

  /** Settles `work` of `database` ('shared' or a tenant's id) and notes what it says about the database. */
  watch<T>(database: string, work: Promise<T>): Promise<T> {
    return work.then(
      (value) => {
        if (this.down.size > 0) this.succeeded(database);
        return value;
      },
      (error: unknown) => {
        // A busy database is up: its work waited its turn too long, which is no outage to report.
        if (!isDatabaseBusy(error) && anyCause(error, saysDown)) this.failed(database, error);
        throw error;
      },
    );
  }

  isDown(database: string): boolean {
    return this.down.has(database);
  }

  private failed(database: string, error: unknown) {
    const known = this.down.get(database);
    if (known) return void known.failures++;
    this.down.set(database, { since: Date.now(), failures: 1 });
    this.report({ state: 'down', database, reason: String((error as { message?: unknown })?.message ?? error).slice(0, 200) });
  }

  private succeeded(database: string) {
    const known = this.down.get(database);
    if (!known) return;
    this.down.delete(database);
    this.report({ state: 'up', database, downMs: Date.now() - known.since, failures: known.failures });
  }
}
