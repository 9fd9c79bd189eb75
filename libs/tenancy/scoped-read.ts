import type { Socket } from 'node:net';
import { Query } from 'pg';

// pg's own conversion of a JavaScript value to a parameter's text (dates,
// arrays, JSON, buffers), the one it applies to bound values.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => string | Buffer | null };

/** Where a read runs: the tenant's schema (as a `search_path` value) and role, if any. */
export interface ReadScope {
  searchPath: string;
  role: string | null;
}

/** The part of pg's connection a query writes its protocol messages with. */
interface PgConnection {
  stream: Socket;
  parse(message: { text: string; name: string; types?: number[] }): void;
  bind(message: { statement: string; values: (string | Buffer | null)[] }): void;
  describe(message: { type: 'P' | 'S'; name: string }): void;
  execute(message: { portal?: string; rows?: number }): void;
  close(message: { type: 'P' | 'S'; name: string }): void;
  sync(): void;
}

// Scoping as a statement with parameters, so it is parsed once per connection.
// `set_config(..., true)` is `SET LOCAL`: it ends with the transaction, here the
// implicit one that ends at Sync. The WHERE clause evaluates every call (none is
// NULL) and returns no row.
const SCOPE_WITH_ROLE = {
  name: 'baton_scope_role',
  text: "SELECT WHERE set_config('search_path', $1, true) IS NULL OR set_config('role', $2, true) IS NULL OR set_config('transaction_read_only', 'on', true) IS NULL",
};
const SCOPE_WITHOUT_ROLE = {
  name: 'baton_scope',
  text: "SELECT WHERE set_config('search_path', $1, true) IS NULL OR set_config('transaction_read_only', 'on', true) IS NULL",
};

/** What is used here of pg's query class, which handles the answers (rows, results, errors). */
interface PgQuery {
  text: string;
  values?: unknown[];
  callback?: (error: Error | null, result: unknown) => void;
  handleError(error: Error, connection: unknown): void;
}
const PgQuery = Query as unknown as new (text: string, values?: unknown[]) => PgQuery;

/** The same name for the same read text on every connection; texts beyond the cap go unnamed. */
const MAX_NAMED_STATEMENTS = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    if (statementNames.size >= MAX_NAMED_STATEMENTS) return '';
    name = `baton_read_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Per connection: the statement names parsed (or being parsed) there. */
const parsedOn = new WeakMap<PgConnection, Set<string>>();

/**
 * One read statement of a tenant, sent with the extended protocol in a single
 * implicit transaction: scope (search path, role, read-only), then the
 * statement, then Sync. Both are named prepared statements, parsed once per
 * connection, so Postgres does not parse the same text again for every read
 * (when the search path differs from the one a statement was planned with,
 * Postgres re-plans it for the current one). The result is the statement's;
 * the scoping returns no row.
 */
export class ScopedRead extends PgQuery {
  private readonly parsedHere: string[] = [];
  private connection: PgConnection | null = null;

  constructor(
    private readonly scope: ReadScope,
    text: string,
    values: unknown[] | undefined,
  ) {
    super(text, values); // text and values, not a config object, which pg would copy
  }

  submit(connection: PgConnection): Error | null {
    let values: (string | Buffer | null)[];
    try {
      values = (this.values ?? []).map((value) => prepareValue(value));
    } catch (error) {
      return error as Error;
    }
    this.connection = connection;
    const scope = this.scope.role ? SCOPE_WITH_ROLE : SCOPE_WITHOUT_ROLE;
    const scopeValues = this.scope.role ? [this.scope.searchPath, this.scope.role] : [this.scope.searchPath];
    const text = this.text;
    const name = statementName(text);
    connection.stream.cork();
    try {
      this.parseOnce(connection, scope.name, scope.text);
      connection.bind({ statement: scope.name, values: scopeValues });
      connection.execute({});
      if (name) this.parseOnce(connection, name, text);
      else connection.parse({ text, name: '' });
      connection.bind({ statement: name, values });
      connection.describe({ type: 'P', name: '' });
      connection.execute({});
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  /**
   * A failed read leaves it unknown whether the statements it parsed exist:
   * they are parsed again (after a Close, which ignores a missing statement).
   */
  override handleError(error: Error, connection: unknown): void {
    const known = this.connection && parsedOn.get(this.connection);
    if (known) {
      for (const name of this.parsedHere) known.delete(name);
      // A statement parsed by a read ahead of this one that failed first (26000),
      // or one whose table changed its columns since (0A000): parsed afresh.
      const code = (error as { code?: string }).code;
      if (code === '26000' || code === '0A000') known.clear();
    }
    super.handleError(error, connection);
  }

  private parseOnce(connection: PgConnection, name: string, text: string) {
    let known = parsedOn.get(connection);
    if (!known) parsedOn.set(connection, (known = new Set()));
    if (known.has(name)) return;
    connection.close({ type: 'S', name });
    connection.parse({ text, name });
    known.add(name);
    this.parsedHere.push(name);
  }
}
