import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { Availability } from './availability';
import { ByodbPools } from './byodb-pools';
import type { ReadLanes } from './read-lanes';
import type * as ReadLanesModule from './read-lanes';
import { timedQuery } from './timed-query';
import type { ReadResult, ReadScope } from './scoped-read';
import { SecretBox } from './secret-box';
import { Dialect, quoteIdent } from './sql';
import { currentTenant, requestDeadline, TenantContext } from './tenant-context';
import { BYODB_SCHEMA } from './tenant-schema';
import { DeadlinePassedError, OwnDatabaseRefusedError, TenantShare } from './tenant-share';

type Work<T> = (manager: EntityManager) => Promise<T>;

/**
 * Ways for work to reach Postgres. `read`: `lanes` (each statement scoped and pipelined,
 * `ReadLanes`) or `transaction` (a read-only transaction like a write's). `write`:
 * `pipelined` (BEGIN with the scope, and the first statement with bound parameters, written
 * together on a pipelined connection), `separate` (the same two, the statement sent after the
 * opening's answer) or `typeorm` (the query runner's own startTransaction/commitTransaction).
 */
export interface PostgresPaths {
  read: 'lanes' | 'transaction';
  write: 'pipelined' | 'separate' | 'typeorm';
}
type Send = (text: string, values?: unknown[]) => Promise<QueryResult | ReadResult>;

/** Bounds on tenant work on Postgres. */
export interface TenantDbLimits {
  /** Postgres's `statement_timeout` for every statement of tenant work, in milliseconds (0: none). */
  statementTimeoutMs: number;
  /**
   * How long the client waits for an answer to one statement before it gives up and drops the
   * connection (a frozen server never cancels anything itself), in milliseconds (0: forever).
   */
  queryTimeoutMs: number;
  /** The percentage of a pool's connections one tenant's work may hold at once. */
  tenantSharePercent: number;
  /** How long work waits for a place in its tenant's share before it fails (`DatabaseBusyError`). */
  shareWaitMs: number;
}

const NO_LIMITS: TenantDbLimits = { statementTimeoutMs: 0, queryTimeoutMs: 0, tenantSharePercent: 100, shareWaitMs: 5000 };

/** What one unit of work may take, its request's deadline considered. */
interface Bounds {
  statementMs: number;
  queryMs: number;
  waitMs: number;
}

/**
 * The only door to tenant data. Both methods run `work` against the current
 * tenant's storage:
 *
 * - `transaction(work)`: one read-write transaction;
 * - `read(work)`: read-only work; on Postgres each statement travels with the
 *   statement that scopes it, both prepared, in one round trip (`ScopedRead`),
 *   on a pipelined connection shared with other reads (`ReadLanes`).
 *   Every statement sees the data committed when it starts (the same as in a
 *   READ COMMITTED transaction); a write inside it fails.
 *
 * Where the data lives:
 * - shared Postgres cluster: a connection from the one shared pool, scoped with
 *   `SET LOCAL search_path` and `SET LOCAL ROLE`, so both end with the
 *   transaction and nothing of this tenant survives on the pooled connection;
 * - BYODB: the tenant's own small pool, schema `baton`;
 * - SQLite (self-hosted): the single file, one unit of work at a time.
 */
export class TenantDb {
  /**
   * How work reaches Postgres. Production keeps the defaults; `npm run bench -- internals`
   * switches them between measurements to print, in one run, what each default buys over the
   * plain way (docs/decisions.md, "Library internals").
   */
  readonly postgresPaths: PostgresPaths = { read: 'lanes', write: 'pipelined' };
  private sqliteQueue: Promise<unknown> = Promise.resolve();
  private readonly readLanes = new WeakMap<DataSource, ReadLanes>();
  private readonly readManagers = new WeakMap<DataSource, EntityManager>();
  private readonly readScopes = new WeakMap<TenantContext, ReadScope>();
  /** Transactions on the shared cluster, per tenant (a BYODB tenant's own pool is all its own). */
  private sharedShare: TenantShare | undefined;

  constructor(
    private readonly shared: DataSource,
    readonly dialect: Dialect,
    private readonly byodb: ByodbPools,
    private readonly secretBox: SecretBox,
    readonly limits: TenantDbLimits = NO_LIMITS,
    private readonly availability = new Availability(),
  ) {}

  transaction<T>(work: Work<T>): Promise<T> {
    if (this.dialect === 'sqlite') return this.serialised(() => this.shared.transaction(work));
    return this.onPostgres(work, 'write');
  }

  read<T>(work: Work<T>): Promise<T> {
    if (this.dialect === 'sqlite') return this.serialised(() => work(this.shared.manager));
    return this.onPostgres(work, 'read');
  }

  /**
   * One write statement as a transaction of its own. On Postgres the opening (with the scope), the
   * statement and COMMIT leave in one write and are answered in one round trip, where a
   * transaction's COMMIT waits for its statements' answers first: for hot single-statement writes
   * that a caller waits on (the AI-log's group commit). A statement that fails rolls it back.
   */
  writeStatement(text: string, values: unknown[]): Promise<void> {
    if (this.dialect === 'sqlite') return this.serialised(async () => void (await this.shared.query(text, values)));
    const tenant = currentTenant();
    const scope = whereOf(tenant);
    return this.availability.watch(
      storageOwner(tenant) ?? 'shared',
      this.onTenantPool(tenant, (source, bounds) => this.statementIn(source, scopeStatements(scope, bounds.statementMs), text, values, bounds.queryMs)),
    );
  }

  /** The data source serving `tenant` (for the health probe and tests). */
  async dataSourceFor(tenant: TenantContext): Promise<DataSource> {
    if (this.dialect === 'postgres' && tenant.byodbUrlEncrypted) {
      return this.byodb.get(tenant.tenantId, () => this.secretBox.open(tenant.byodbUrlEncrypted as string));
    }
    return this.shared;
  }

  private onPostgres<T>(work: Work<T>, mode: 'read' | 'write'): Promise<T> {
    const tenant = currentTenant();
    return this.availability.watch(storageOwner(tenant) ?? 'shared', this.inPostgres(tenant, work, mode));
  }

  private async inPostgres<T>(tenant: TenantContext, work: Work<T>, mode: 'read' | 'write'): Promise<T> {
    const paths = this.postgresPaths;
    if (mode === 'read' && paths.read === 'lanes') {
      const source = tenant.byodbUrlEncrypted ? await this.ownDatabase(tenant) : this.shared;
      return work(this.readManagerFor(source, storageOwner(tenant)));
    }
    return this.onTenantPool(tenant, (source, bounds) => {
      const scope = scopeStatements(whereOf(tenant), bounds.statementMs) + (mode === 'read' ? '; SET TRANSACTION READ ONLY' : '');
      return paths.write === 'typeorm' ? this.transactWithTypeorm(source, scope, work) : this.transactIn(source, scope, work, paths.write, bounds.queryMs);
    });
  }

  /** Runs `use` with `tenant`'s pool and the bounds of now, within its share of the shared pool. */
  private async onTenantPool<T>(tenant: TenantContext, use: (source: DataSource, bounds: Bounds) => Promise<T>): Promise<T> {
    const source = tenant.byodbUrlEncrypted ? await this.ownDatabase(tenant) : this.shared;
    const bounds = this.boundsNow();
    if (source !== this.shared) return use(source, bounds);
    return this.shareOf(source).run(tenant.tenantId, () => use(source, bounds), bounds.waitMs);
  }

  /** `BEGIN` with the scope, the statement and `COMMIT`, written together on a pipelined connection. */
  private statementIn(source: DataSource, scope: string, text: string, values: unknown[], timeout: number): Promise<void> {
    return this.onConnection(source, timeout, async ({ connection, query }) => {
      const answers = pipelined(connection, () => [query(`BEGIN; ${scope}`), query(text, values), query('COMMIT')]);
      // Every answer is awaited before the connection goes back: none may arrive for its next user.
      for (const answer of await Promise.allSettled(answers)) if (answer.status === 'rejected') throw answer.reason;
    });
  }

  /**
   * Runs `use` on a connection of `source`'s pool, every query bounded by the client's `timeout`.
   * A statement the client gave up waiting for may still be running, or the connection may be
   * gone: either way the connection is dropped afterwards, not returned to the pool.
   */
  private async onConnection<T>(source: DataSource, timeout: number, use: (held: HeldConnection) => Promise<T>): Promise<T> {
    const runner = source.createQueryRunner();
    let connection: Pipelinable | undefined;
    let broken: Error | undefined;
    try {
      connection = (await runner.connect()) as Pipelinable;
      const client = connection;
      const query = (text: string, values?: unknown[]): Promise<QueryResult> =>
        timedQuery(client, text, values, timeout).catch((error: Error) => {
          if (isConnectionLost(error)) broken ??= error;
          throw error;
        });
      return await use({ runner, connection: client, query, lost: () => broken !== undefined });
    } finally {
      if (connection) connection.pipeline = false;
      await releaseRunner(runner, broken);
    }
  }

  /**
   * The configured bounds, shortened to end by the running request's deadline: a statement gets
   * what is left (the server's timeout a little before the client's, as configured), and work
   * that would start with nothing left is refused (`DeadlinePassedError`).
   */
  private boundsNow(): Bounds {
    const { statementTimeoutMs, queryTimeoutMs, shareWaitMs } = this.limits;
    const deadline = requestDeadline();
    if (deadline === undefined || !queryTimeoutMs) return { statementMs: statementTimeoutMs, queryMs: queryTimeoutMs, waitMs: shareWaitMs };
    const left = deadline - Date.now();
    if (left < MIN_STATEMENT_MS) throw new DeadlinePassedError();
    if (left >= queryTimeoutMs) return { statementMs: statementTimeoutMs, queryMs: queryTimeoutMs, waitMs: Math.min(shareWaitMs, left) };
    const grace = queryTimeoutMs - statementTimeoutMs;
    return { statementMs: Math.max(left - grace, Math.floor(left / 2)), queryMs: left, waitMs: Math.min(shareWaitMs, left) };
  }

  /** A BYODB tenant's pool; one the outbound guard refuses to open is `OwnDatabaseRefusedError`. */
  private async ownDatabase(tenant: TenantContext): Promise<DataSource> {
    try {
      return await this.byodb.get(tenant.tenantId, () => this.secretBox.open(tenant.byodbUrlEncrypted as string));
    } catch (error) {
      if ((error as Error)?.name === 'OutboundRefusedError') throw new OwnDatabaseRefusedError((error as Error).message);
      throw error;
    }
  }

  /** The fair share of the shared pool: a percentage of its connections, at least one. */
  private shareOf(source: DataSource): TenantShare {
    if (!this.sharedShare) {
      const max = poolOf(source).options.max ?? 10;
      const limit = Math.max(1, Math.floor((max * this.limits.tenantSharePercent) / 100));
      this.sharedShare = new TenantShare(limit, this.limits.shareWaitMs);
    }
    return this.sharedShare;
  }

  /** A transaction through TypeORM's own query runner API only: START TRANSACTION, the scope, the work, COMMIT. */
  private async transactWithTypeorm<T>(source: DataSource, scope: string, work: Work<T>): Promise<T> {
    const runner = source.createQueryRunner();
    try {
      await runner.startTransaction();
      try {
        await runner.query(scope);
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * The entity manager every read-only unit of work on `source` is given. Its
   * query runner holds no connection and nothing of any request: each statement
   * is scoped, when it is sent, for the tenant of the request that sends it, and
   * travels on `source`'s read lanes. So no runner is made and released per read.
   * No transaction stays open: each statement is its own implicit one, scoped
   * (and made read-only) by the statement sent with it. `owner` is the tenant
   * whose own database `source` is, or null for the shared cluster.
   */
  private readManagerFor(source: DataSource, owner: string | null): EntityManager {
    let manager = this.readManagers.get(source);
    if (manager) return manager;
    const lanes = this.lanesFor(source);
    const runner = source.createQueryRunner();
    routeQueries(runner, (text, values) => {
      if (TRANSACTION_CONTROL.test(text)) return Promise.reject(new Error('read-only tenant work cannot open or end a transaction'));
      const tenant = currentTenant();
      // The tenant chose the source when the work began: a statement sent under another tenant fails loudly.
      if (owner !== storageOwner(tenant)) {
        return Promise.reject(new Error(`a read of tenant ${tenant.tenantId} reached another tenant's storage`));
      }
      const readScope = this.readScopeOf(tenant, this.boundsNow().statementMs);
      return lanes.read(readScope, text, values).catch((error: unknown) => {
        // Several statements in one text cannot be prepared: without parameters they are sent
        // as text, scoped the same way; with parameters Postgres's refusal stands, as it would
        // for any pg query.
        if (!isMultiStatementRefusal(error) || (values && values.length > 0)) throw error;
        const scope = scopeStatements(whereOf(tenant), Number(readScope.statementTimeout));
        return lastResult(lanes.query(readScope.searchPath, `${scope}; SET LOCAL transaction_read_only TO on; ${text}`));
      });
    });
    manager = runner.manager;
    this.readManagers.set(source, manager);
    return manager;
  }

  private transactIn<T>(source: DataSource, scope: string, work: Work<T>, opening: 'separate' | 'pipelined', timeout: number): Promise<T> {
    return this.onConnection(source, timeout, async ({ runner, connection, query, lost }) => {
      // Statements go out one after another, in the order they were issued,
      // even when the work issues several at once.
      let tail: Promise<unknown> = Promise.resolve();
      const send = (text: string, values?: unknown[]): Promise<QueryResult> => {
        const result = tail.then(() => query(text, values));
        tail = result.catch(() => undefined);
        return result;
      };
      // The transaction opens, already scoped, with the first statement: both leave in one
      // write on the connection, switched to pg's pipeline mode (see `PostgresPaths`).
      let open = false;
      routeQueries(runner, (text, values) => {
        if (open) return send(text, values);
        open = true;
        if (opening === 'separate') return Promise.all([send(`BEGIN; ${scope}`), send(text, values)]).then(([, result]) => result);
        // Pipelined: the opening and the statement leave together, without waiting for the
        // opening's answer; a failed opening aborts the transaction, so the statement fails too.
        const both = Promise.all(pipelined(connection, () => [query(`BEGIN; ${scope}`), query(text, values)]));
        tail = both.catch(() => undefined);
        return both.then(([, result]) => result);
      });
      markTransactionOpen(runner);
      try {
        const result = await work(runner.manager);
        if (open) await send('COMMIT');
        return result;
      } catch (error) {
        if (open && !lost()) await send('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /**
   * A tenant's read scope: worked out once per tenant object (a request's tenant is one object
   * for the whole request), made anew only when the deadline shortens the statement timeout.
   */
  private readScopeOf(tenant: TenantContext, statementMs: number): ReadScope {
    let scope = this.readScopes.get(tenant);
    if (!scope) {
      const where = whereOf(tenant);
      scope = { searchPath: quoteIdent(where.schema), role: where.role, statementTimeout: String(Math.trunc(this.limits.statementTimeoutMs)) };
      this.readScopes.set(tenant, scope);
    }
    return statementMs === this.limits.statementTimeoutMs ? scope : { ...scope, statementTimeout: String(Math.trunc(statementMs)) };
  }

  /** The pipelined read connections of `source`'s pool: half of the pool at most. */
  private lanesFor(source: DataSource): ReadLanes {
    let lanes = this.readLanes.get(source);
    if (!lanes) {
      const pool = poolOf(source);
      const maxLanes = Math.max(1, Math.floor((pool.options.max ?? 10) / 2));
      const tenantLanes = Math.max(1, Math.floor((maxLanes * this.limits.tenantSharePercent) / 100));
      lanes = new (postgresParts().ReadLanes)(pool, maxLanes, tenantLanes, this.limits.queryTimeoutMs);
      this.readLanes.set(source, lanes);
    }
    return lanes;
  }

  /** better-sqlite3 has one connection: units of work must not interleave. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.sqliteQueue.then(work, work);
    this.sqliteQueue = next.catch(() => undefined);
    return next;
  }
}

/**
 * What only Postgres work needs, and pg with it, loads with the first Postgres
 * unit of work: a self-hosted instance on SQLite never loads pg.
 */
let postgresModules: { ReadLanes: typeof ReadLanesModule.ReadLanes } | undefined;

function postgresParts() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded synchronously on first use, so that SQLite never loads pg (see above) */
  return (postgresModules ??= {
    ReadLanes: (require('./read-lanes') as typeof ReadLanesModule).ReadLanes,
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** Less time than this left before the deadline: no statement is started. */
const MIN_STATEMENT_MS = 50;

const TRANSACTION_CONTROL = /^\s*(START|BEGIN|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE\s+TRANSACTION)\b/i;

/** A pooled pg client, switched to pipelining with this flag (`test/library-contracts.spec.ts`). */
type Pipelinable = PoolClient & { pipeline: boolean };

/** One connection held for a unit of work: its query runner, the client, a bounded query, and whether it was lost. */
interface HeldConnection {
  runner: QueryRunner;
  connection: Pipelinable;
  query: (text: string, values?: unknown[]) => Promise<QueryResult>;
  lost: () => boolean;
}

/** Sends the queries `send` issues in one write, on `connection` switched to pg's pipeline mode. */
function pipelined<T>(connection: Pipelinable, send: () => Promise<T>[]): Promise<T>[] {
  connection.pipeline = true;
  const socket = connection.connection.stream;
  socket.cork();
  const answers = send();
  socket.uncork();
  return answers;
}

/** A tenant's schema and role (none for a BYODB database, whose connection owns it). */
interface Where {
  schema: string;
  role: string | null;
}

/** The tenant whose own database holds `tenant`'s data (itself, with BYODB), or null for the shared cluster. */
function storageOwner(tenant: TenantContext): string | null {
  return tenant.byodbUrlEncrypted ? tenant.tenantId : null;
}

/** Where `tenant`'s data lives on the storage it uses: its schema and role on the shared cluster, `baton` in its own database. */
function whereOf(tenant: TenantContext): Where {
  if (tenant.byodbUrlEncrypted) return { schema: BYODB_SCHEMA, role: null };
  if (!tenant.schema) throw new Error(`Tenant ${tenant.tenantId} has no schema on the shared cluster`);
  return { schema: tenant.schema, role: tenant.role };
}

function scopeStatements({ schema, role }: Where, statementTimeoutMs: number): string {
  return `SET LOCAL search_path TO ${quoteIdent(schema)}; SET LOCAL statement_timeout TO ${Math.trunc(statementTimeoutMs)}${role ? `; SET LOCAL ROLE ${quoteIdent(role)}` : ''}`;
}

/** The pg pool of a Postgres data source (`test/library-contracts.spec.ts`). */
function poolOf(source: DataSource): Pool {
  return (source.driver as unknown as { master: Pool }).master;
}

/**
 * Errors after which a connection cannot be trusted with another transaction: the client gave up
 * waiting for an answer (`query_timeout`), or the connection itself failed or was closed.
 */
function isConnectionLost(error: Error): boolean {
  const code = (error as { code?: string }).code ?? '';
  return (
    error.message === 'Query read timeout' ||
    /^Connection terminated|not queryable|Client was closed/.test(error.message) ||
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED'].includes(code)
  );
}

/**
 * Gives the runner's connection back to the pool, or, after `broken`, has the pool drop it. TypeORM
 * passes an error to pg's release only from its private `releasePostgresConnection`
 * (`test/library-contracts.spec.ts`); its public `release()` always gives the connection back.
 */
function releaseRunner(runner: QueryRunner, broken: Error | undefined): Promise<void> {
  if (!broken) return runner.release();
  return (runner as unknown as { releasePostgresConnection(error?: Error): Promise<void> }).releasePostgresConnection(broken);
}

function isMultiStatementRefusal(error: unknown): boolean {
  return (error as { code?: string }).code === '42601' && /multiple commands/.test((error as Error).message);
}

/** A multi-statement message answers with one result per statement: the caller asked for the last. */
async function lastResult(pending: Promise<QueryResult | QueryResult[]>): Promise<QueryResult> {
  const result = await pending;
  return Array.isArray(result) ? result[result.length - 1] : result;
}

/**
 * Makes every statement TypeORM sends through `runner` (entity manager calls,
 * query builders, raw queries) go through `send`. TypeORM reaches the driver
 * connection only through `connect()`, so that is where the scoped one is given.
 */
function routeQueries(runner: QueryRunner, send: Send): void {
  const scoped = {
    query(text: unknown, values?: unknown[]) {
      if (typeof text !== 'string') return Promise.reject(new Error('streamed queries are not available inside tenant work'));
      return send(text, values);
    },
  };
  (runner as unknown as { connect: () => Promise<unknown> }).connect = () => Promise.resolve(scoped);
}

/**
 * Tells TypeORM a transaction is open on `runner`, so that `save()` and
 * friends do not open their own and nested `transaction()` calls use savepoints;
 * the BEGIN itself travels with the first statement.
 */
function markTransactionOpen(runner: QueryRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = true;
  state.transactionDepth = 1;
}
