/** True when a database error is a unique-constraint violation (Postgres 23505, SQLite UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } } | null)?.driverError ?? (error as { code?: string } | null);
  const code = driverError?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** Escapes %, _ and \ for a LIKE pattern used with ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** SQLSTATEs of a database that is down, going down, starting, full, or took too long. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '53300', '53000']);
/** Socket errors on the way to the database. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'DATABASE_BUSY', 'SQLITE_BUSY']);
/** What pg, its pool and TypeORM say when the connection is gone or was never had. */
const UNAVAILABLE_MESSAGES =
  /^(Query read timeout|Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|Query runner already released)/;

/**
 * True when `error` says the database could not serve the request now (refused, reset, timed out,
 * shutting down or starting up, no free connection) rather than that the request was wrong or
 * Baton has a bug: the request may be tried again as it is.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}
