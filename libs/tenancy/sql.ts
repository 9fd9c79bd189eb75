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

/**
 * Adapts a statement written with Postgres placeholders ($1, $2, ...) to the
 * dialect: SQLite gets `?` placeholders and the parameters in order of use.
 */
export function bindParams(dialect: Dialect, sql: string, params: unknown[]): [string, unknown[]] {
  if (dialect === 'postgres') return [sql, params];
  const ordered: unknown[] = [];
  const text = sql.replace(/\$(\d+)/g, (_m, n: string) => {
    ordered.push(params[Number(n) - 1]);
    return '?';
  });
  return [text, ordered];
}

/**
 * A timestamp as a raw-SQL parameter: a Date for Postgres; for SQLite the UTC
 * text TypeORM itself stores in datetime columns ("YYYY-MM-DD HH:MM:SS.SSS"),
 * so raw comparisons and TypeORM-written values agree.
 */
export function sqlTimestamp(dialect: Dialect, date: Date): Date | string {
  return dialect === 'postgres' ? date : date.toISOString().replace('T', ' ').replace('Z', '');
}

/** Reads a timestamp returned by a raw query on either dialect. */
export function fromSqlTimestamp(value: Date | string): Date {
  if (value instanceof Date) return value;
  return new Date(/Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value.replace(' ', 'T')}Z`);
}
