export type Dialect = 'sqlite' | 'postgres';

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Quotes a Postgres identifier that Baton generated itself (schema and role
 * names). Anything outside [a-z0-9_] is refused rather than escaped: these names
 * are built from ids, never from user input.
 */
export function quoteIdent(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Refusing unsafe SQL identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

/** Picks the statement written for the connection's dialect. */
export function forDialect(dialect: Dialect, sql: { postgres: string; sqlite: string }): string {
  return dialect === 'postgres' ? sql.postgres : sql.sqlite;
}
