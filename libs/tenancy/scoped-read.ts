import type { Socket } from 'node:net';
import { type ClientBase, Query } from 'pg';

// pg's own conversion of a JavaScript value to a parameter's text (dates,
// arrays, JSON, buffers), the one it applies to bound values. Not public API:
// pg is pinned and test/library-contracts.spec.ts checks it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- pg/lib/utils has no type declarations to import: the cast types the one function used
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => string | Buffer | null };

/** Where a read runs: the tenant's schema (as a `search_path` value) and role, if any, and how long it may take. */
export interface ReadScope {
  searchPath: string;
  role: string | null;
  /** Postgres's `statement_timeout` for the read, in milliseconds as text ('0': none). */
  statementTimeout: string;
}

/** A column of a read's answer, as Postgres describes it. */
export interface ReadField {
  name: string;
  dataTypeID: number;
  format: string;
}

/** What a read answers: the shape of pg's own result, as TypeORM reads it. */
export interface ReadResult {
  command: string | null;
  rowCount: number | null;
  oid: number | null;
  rows: Record<string, unknown>[];
  fields: ReadField[];
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
  text: "SELECT WHERE set_config('search_path', $1, true) IS NULL OR set_config('statement_timeout', $2, true) IS NULL OR set_config('role', $3, true) IS NULL OR set_config('transaction_read_only', 'on', true) IS NULL",
};
const SCOPE_WITHOUT_ROLE = {
  name: 'baton_scope',
  text: "SELECT WHERE set_config('search_path', $1, true) IS NULL OR set_config('statement_timeout', $2, true) IS NULL OR set_config('transaction_read_only', 'on', true) IS NULL",
};

/** How the rows of one prepared statement are read: its columns and a text parser for each. */
interface RowShape {
  fields: ReadField[];
  names: string[];
  parsers: ((text: string) => unknown)[];
}

/**
 * The part of pg's query class used here: the text and values it keeps, the callback the client
 * answers through, and its error reporting. A subclass of pg's own `Query`, because a pipelined
 * client refuses any other submittable (pg 8.23: "Custom query classes ... not supported in
 * pipeline mode"). pg is pinned to an exact version and `test/library-contracts.spec.ts` checks
 * every one of these, and the messages the client hands to the active query.
 */
interface PgQuery {
  text: string;
  values?: unknown[];
  /** Read by the client when the query is submitted: it fails the query after this many milliseconds without an answer. */
  query_timeout?: number;
  callback?: (error: Error | null, result: unknown) => void;
  handleError(error: Error, connection: unknown): void;
}
const PgQuery = Query as unknown as new (text: string, values?: unknown[]) => PgQuery;

/** Where a column's parser comes from: the client's own `getTypeParser` (public API). */
export type TypeParsers = Pick<ClientBase, 'getTypeParser'>;

/** A CommandComplete tag: `SELECT 3`, `INSERT 0 1`, `UPDATE 2`. */
const COMMAND_TAG = /^([A-Za-z]+)(?: (\d+))?(?: (\d+))?/;

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

/**
 * Per connection: the statement names parsed (or being parsed) there, each
 * with the shape of its rows once a read of it has described them (null until then).
 */
const parsedOn = new WeakMap<PgConnection, Map<string, RowShape | null>>();

/**
 * One read statement of a tenant, sent with the extended protocol in a single
 * implicit transaction: scope (search path, role, read-only), then the
 * statement, then Sync. Both are named prepared statements, parsed once per
 * connection, so Postgres does not parse the same text again for every read
 * (when the search path differs from the one a statement was planned with,
 * Postgres re-plans it for the current one). The first read of a statement on
 * a connection asks Postgres to describe its rows; later ones reuse that
 * description, so neither side spends time on it again. Should the columns
 * change, Postgres refuses the prepared statement ("cached plan must not change
 * result type") and the read is sent again, parsed and described afresh.
 * The answer is the statement's; the scoping returns no row. Without `named`
 * both are unnamed statements, parsed and described every time, so nothing of
 * the read is left on the connection for a pooler to lose.
 */
export class ScopedRead extends PgQuery {
  private readonly parsedHere: string[] = [];
  private connection: PgConnection | null = null;
  /** The prepared statement's name ('' beyond the cap). Not `name`: pg's query class reads that. */
  private statement = '';
  private shape: RowShape | null = null;
  /** Not `rows`: pg's query class reads that as a portal's page size. */
  private readonly answerRows: Record<string, unknown>[] = [];
  /** CommandComplete messages seen: the scope's first, then the statement's. */
  private completed = 0;
  private rowError: Error | null = null;
  private command: string | null = null;
  private rowCount: number | null = null;

  constructor(
    private readonly scope: ReadScope,
    text: string,
    values: unknown[] | undefined,
    private readonly types: TypeParsers,
    /** False: both statements unnamed, parsed (and the read described) every time, for a pooler that moves a client between server connections. */
    private readonly named = true,
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
    let known = parsedOn.get(connection);
    if (!known) parsedOn.set(connection, (known = new Map()));
    const scope = this.scope.role ? SCOPE_WITH_ROLE : SCOPE_WITHOUT_ROLE;
    const { searchPath, statementTimeout, role } = this.scope;
    const scopeValues = role ? [searchPath, statementTimeout, role] : [searchPath, statementTimeout];
    const text = this.text;
    const named = this.named;
    const name = (this.statement = named ? statementName(text) : '');
    connection.stream.cork();
    try {
      if (named) this.parseOnce(connection, known, scope.name, scope.text);
      else connection.parse({ text: scope.text, name: '' });
      connection.bind({ statement: named ? scope.name : '', values: scopeValues });
      connection.execute({});
      if (name) this.parseOnce(connection, known, name, text);
      else connection.parse({ text, name: '' });
      connection.bind({ statement: name, values });
      this.shape = (name && known.get(name)) || null;
      if (!this.shape) connection.describe({ type: 'P', name: '' });
      connection.execute({});
      connection.sync();
    } finally {
      connection.stream.uncork();
    }
    return null;
  }

  /** Only a read that asked for it (the first of its statement on the connection) is described. */
  handleRowDescription(message: { fields: ReadField[] }): void {
    const types = this.types;
    const fields = message.fields;
    const shape: RowShape = {
      fields,
      names: fields.map((field) => field.name),
      parsers: fields.map((field) => types.getTypeParser(field.dataTypeID, field.format === 'binary' ? 'binary' : 'text') as (text: string) => unknown),
    };
    this.shape = shape;
    const known = this.connection && parsedOn.get(this.connection);
    if (this.statement && known?.has(this.statement)) known.set(this.statement, shape);
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    const shape = this.shape;
    if (this.rowError) return;
    if (!shape) {
      this.rowError = new Error('a row arrived for a read whose columns were not described');
      return;
    }
    try {
      const row: Record<string, unknown> = {};
      const values = message.fields;
      for (let i = 0; i < values.length; i++) {
        const raw = values[i];
        row[shape.names[i]] = raw === null ? null : shape.parsers[i](raw);
      }
      this.answerRows.push(row);
    } catch (error) {
      this.rowError = error as Error;
    }
  }

  handleCommandComplete(message: { text: string }): void {
    if (this.completed++ === 0) return; // the scoping statement
    const tag = COMMAND_TAG.exec(message.text);
    if (!tag) return;
    this.command = tag[1];
    // `INSERT oid rows` has two numbers; every other tag at most one, the row count.
    const count = tag[3] ?? tag[2];
    if (count !== undefined) this.rowCount = Number(count);
  }

  handleEmptyQuery(): void {
    this.completed++;
  }

  handleReadyForQuery(connection: unknown): void {
    if (this.rowError) return this.handleError(this.rowError, connection);
    const { command, rowCount } = this;
    const result: ReadResult = { command, rowCount, oid: null, rows: this.answerRows, fields: this.shape?.fields ?? [] };
    this.callback?.(null, result);
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

  private parseOnce(connection: PgConnection, known: Map<string, RowShape | null>, name: string, text: string) {
    if (known.has(name)) return;
    connection.close({ type: 'S', name });
    connection.parse({ text, name });
    known.set(name, null);
    this.parsedHere.push(name);
  }
}
