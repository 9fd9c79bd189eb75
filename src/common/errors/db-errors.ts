/** True when a database error is a unique-constraint violation (Postgres 23505, SQLite UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: string } } | null)?.driverError ?? (error as { code?: string } | null);
  const code = driverError?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * True when the values written could have caused a database error, rather than the database's
 * state: a data exception or an integrity-constraint violation (Postgres SQLSTATE classes 22 and
 * 23; SQLite's constraint, type mismatch and too-big errors). Writing the same rows again fails
 * again; writing others may succeed.
 */
export function isRowDataError(error: unknown): boolean {
  const driverError = (error as { driverError?: { code?: unknown } } | null)?.driverError ?? (error as { code?: unknown } | null);
  const code = driverError?.code;
  if (typeof code !== 'string') return false;
  return /^2[23][0-9A-Z]{3}$/.test(code) || code.startsWith('SQLITE_CONSTRAINT') || code === 'SQLITE_MISMATCH' || code === 'SQLITE_TOOBIG';
}

/** Escapes %, _ and \ for a LIKE pattern used with ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
