import { DataSource, EntityManager } from 'typeorm';
import { ByodbPools } from './byodb-pools';
import { SecretBox } from './secret-box';
import { Dialect, quoteIdent } from './sql';
import { currentTenant, TenantContext } from './tenant-context';
import { BYODB_SCHEMA } from './tenant-schema';

/**
 * The only door to tenant data. `transaction(work)` runs `work` in one
 * transaction against the current tenant's storage:
 *
 * - shared Postgres cluster: a connection from the one shared pool, with
 *   `SET LOCAL search_path` and `SET LOCAL ROLE` so that both end with the
 *   transaction and nothing of this tenant survives on the pooled connection;
 * - BYODB: the tenant's own small pool, schema `baton`;
 * - SQLite (self-hosted): the single file, one transaction at a time.
 */
export class TenantDb {
  private sqliteQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly shared: DataSource,
    readonly dialect: Dialect,
    private readonly byodb: ByodbPools,
    private readonly secretBox: SecretBox,
  ) {}

  async transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const tenant = currentTenant();
    if (this.dialect === 'sqlite') return this.serialised(() => this.shared.transaction(work));
    if (tenant.byodbUrlEncrypted) {
      const own = await this.byodb.get(tenant.tenantId, () => this.secretBox.open(tenant.byodbUrlEncrypted as string));
      return this.inSchema(own, BYODB_SCHEMA, null, work);
    }
    if (!tenant.schema) throw new Error(`Tenant ${tenant.tenantId} has no schema on the shared cluster`);
    return this.inSchema(this.shared, tenant.schema, tenant.role, work);
  }

  /** The data source serving `tenant` (for the health probe and tests). */
  async dataSourceFor(tenant: TenantContext): Promise<DataSource> {
    if (this.dialect === 'postgres' && tenant.byodbUrlEncrypted) {
      return this.byodb.get(tenant.tenantId, () => this.secretBox.open(tenant.byodbUrlEncrypted as string));
    }
    return this.shared;
  }

  private async inSchema<T>(source: DataSource, schema: string, role: string | null, work: (m: EntityManager) => Promise<T>) {
    const runner = source.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      try {
        await runner.query(`SET LOCAL search_path TO ${quoteIdent(schema)}${role ? `; SET LOCAL ROLE ${quoteIdent(role)}` : ''}`);
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /** better-sqlite3 has one connection: transactions must not interleave. */
  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const next = this.sqliteQueue.then(work, work);
    this.sqliteQueue = next.catch(() => undefined);
    return next;
  }
}
