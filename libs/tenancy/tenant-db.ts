import { DataSource, EntityManager } from 'typeorm';
import { Availability } from './availability';
import { ByodbPools } from './byodb-pools';
import { poolOf } from './pg-connection';
import { createReadManager } from './postgres-read';
import { Statement, statementIn, transactIn, transactWithTypeorm, Work } from './postgres-transaction';
import type { ReadLanes } from './read-lanes';
import type * as ReadLanesModule from './read-lanes';
import type { ReadScope } from './scoped-read';
import { SecretBox } from './secret-box';
import type { TenantServers } from './tenant-servers';
import { Dialect, quoteIdent } from './sql';
import { currentTenant, requestDeadline, TenantContext } from './tenant-context';
import { MoveWatch } from './tenant-moving';
import { DeadlinePassedError, OwnDatabaseRefusedError, TenantShare } from './tenant-share';
import { scopeStatements, storageOwner, whereOf } from './tenant-where';

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
  /** How long work outside a request waits for a place in its tenant's share before it fails (`DatabaseBusyError`); a request's work waits until its deadline. */
  shareWaitMs: number;
  /**
   * Whether reads and named `writeStatement`s are named prepared statements, parsed once per
   * connection (true), or unnamed ones parsed every time (false): for a transaction-mode pooler
   * that does not carry a client's prepared statements to the server connection it lands on next.
   */
  preparedStatements: boolean;
}

const NO_LIMITS: TenantDbLimits = { statementTimeoutMs: 0, queryTimeoutMs: 0, tenantSharePercent: 100, shareWaitMs: 5000, preparedStatements: true };

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
 * - a server holding tenant schemas (the control plane's, or another of
 *   `SERVICE_TENANT_DB_URLS`): a connection from that server's one pool, scoped with
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
  /** Transactions on each server's pool, per tenant (a BYODB tenant's own pool is all its own). */
  private readonly shares = new WeakMap<DataSource, TenantShare>();
  /** Tells a schema closed by a move (`npm run tenant:move`) from other failures. */
  readonly moves: MoveWatch;

  constructor(
    private readonly shared: DataSource,
    readonly dialect: Dialect,
    private readonly byodb: ByodbPools,
    private readonly secretBox: SecretBox,
    readonly limits: TenantDbLimits = NO_LIMITS,
    private readonly availability = new Availability(),
    private readonly servers?: TenantServers,
  ) {
    this.moves = new MoveWatch(shared);
  }

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
   * that a caller waits on (the AI-log's group commit). A statement that fails rolls it back. A
   * statement with a `name` is prepared under it on each Postgres connection the first time it
   * runs there: later writes send only its values, and Postgres neither parses nor plans it again
   * (it analyses it again when the connection's last tenant was another, whose search path differs).
   * Without prepared statements (`limits.preparedStatements` false) the name is ignored.
   * Answers the rows the statement returns (`RETURNING`), none for a statement that returns none.
   */
  writeStatement(given: Statement): Promise<Record<string, unknown>[]> {
    if (this.dialect === 'sqlite') return this.serialised(async () => rowsOf(await this.shared.query(given.text, given.values)));
    const statement = this.limits.preparedStatements || given.name === undefined ? given : { text: given.text, values: given.values };
    const tenant = currentTenant();
    const scope = whereOf(tenant);
    return this.availability
      .watch(
        storageOwner(tenant) ?? 'shared',
        this.onTenantPool(tenant, (source, bounds) => statementIn(source, scopeStatements(scope, bounds.statementMs), statement, bounds.queryMs)),
      )
      .catch((error: unknown) => this.moves.explain(tenant, error));
  }

  /** The data source serving `tenant` (for the health probe and tests). */
  async dataSourceFor(tenant: TenantContext): Promise<DataSource> {
    if (this.dialect !== 'postgres') return this.shared;
    return this.sourceOf(tenant);
  }

  /** Where `tenant`'s data lives: its own database, the server it is placed on, or the control plane's. */
  private sourceOf(tenant: TenantContext): Promise<DataSource> {
    if (tenant.byodbUrlEncrypted) return this.ownDatabase(tenant);
    if (tenant.server && this.servers) return this.servers.source(tenant.server);
    return Promise.resolve(this.shared);
  }

  /** A failure of a schema closed by a move becomes `TenantMovingError` (`MoveWatch`). */
  private onPostgres<T>(work: Work<T>, mode: 'read' | 'write'): Promise<T> {
    const tenant = currentTenant();
    return this.availability.watch(storageOwner(tenant) ?? 'shared', this.inPostgres(tenant, work, mode)).catch((error: unknown) => this.moves.explain(tenant, error));
  }

  private async inPostgres<T>(tenant: TenantContext, work: Work<T>, mode: 'read' | 'write'): Promise<T> {
    const paths = this.postgresPaths;
    if (mode === 'read' && paths.read === 'lanes') {
      const source = await this.sourceOf(tenant);
      return work(this.readManagerFor(source, storageOwner(tenant)));
    }
    return this.onTenantPool(tenant, (source, bounds) => {
      const scope = scopeStatements(whereOf(tenant), bounds.statementMs) + (mode === 'read' ? '; SET TRANSACTION READ ONLY' : '');
      return paths.write === 'typeorm' ? transactWithTypeorm(source, scope, work) : transactIn(source, scope, work, paths.write, bounds.queryMs);
    });
  }

  /**
   * Runs `use` with `tenant`'s pool within its share of the shared pool, and the bounds of the
   * moment it gets its place (a wait in the tenant's line shortens what a request has left).
   */
  private async onTenantPool<T>(tenant: TenantContext, use: (source: DataSource, bounds: Bounds) => Promise<T>): Promise<T> {
    const source = await this.sourceOf(tenant);
    const bounds = this.boundsNow();
    if (tenant.byodbUrlEncrypted) return use(source, bounds);
    return this.shareOf(source).run(tenant.tenantId, () => use(source, this.boundsNow()), bounds.waitMs);
  }

  /**
   * The configured bounds, shortened to end by the running request's deadline: a statement gets
   * what is left (the server's timeout a little before the client's, as configured), and work
   * that would start with nothing left is refused (`DeadlinePassedError`). Work of a request waits
   * for a place in its tenant's share as long as the deadline leaves room for a statement after
   * it, since the request would answer 503 at the deadline anyway; work outside a request (sweeps,
   * jobs) waits `shareWaitMs`.
   */
  private boundsNow(): Bounds {
    const { statementTimeoutMs, queryTimeoutMs, shareWaitMs } = this.limits;
    const deadline = requestDeadline();
    if (deadline === undefined || !queryTimeoutMs) return { statementMs: statementTimeoutMs, queryMs: queryTimeoutMs, waitMs: shareWaitMs };
    const left = deadline - Date.now();
    if (left < MIN_STATEMENT_MS) throw new DeadlinePassedError();
    const waitMs = left - MIN_STATEMENT_MS;
    if (left >= queryTimeoutMs) return { statementMs: statementTimeoutMs, queryMs: queryTimeoutMs, waitMs };
    const grace = queryTimeoutMs - statementTimeoutMs;
    return { statementMs: Math.max(left - grace, Math.floor(left / 2)), queryMs: left, waitMs };
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

  /** The fair share of a server's pool: a percentage of its connections, at least one. */
  private shareOf(source: DataSource): TenantShare {
    let share = this.shares.get(source);
    if (!share) {
      const max = poolOf(source).options.max ?? 10;
      const limit = Math.max(1, Math.floor((max * this.limits.tenantSharePercent) / 100));
      share = new TenantShare(limit, this.limits.shareWaitMs);
      this.shares.set(source, share);
    }
    return share;
  }

  /** The one entity manager of read-only work on `source` (`createReadManager`). */
  private readManagerFor(source: DataSource, owner: string | null): EntityManager {
    let manager = this.readManagers.get(source);
    if (!manager) {
      manager = createReadManager(source, this.lanesFor(source), owner, (tenant) => this.readScopeOf(tenant, this.boundsNow().statementMs));
      this.readManagers.set(source, manager);
    }
    return manager;
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
      lanes = new (postgresParts().ReadLanes)(pool, maxLanes, tenantLanes, this.limits.queryTimeoutMs, this.limits.preparedStatements);
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

/** What TypeORM's SQLite query answers, as rows: an array for a statement that returns rows, a run summary otherwise. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  return Array.isArray(result) ? (result as Record<string, unknown>[]) : [];
}

/** Less time than this left before the deadline: no statement is started. */
const MIN_STATEMENT_MS = 50;
