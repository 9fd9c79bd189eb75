import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BYODB_SCHEMA, quoteIdent, runMigrations } from '../../../libs/tenancy';
import { OutboundGuard } from '../../../libs/outbound-guard';
import { redactSecrets } from '../../../libs/secrets';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { BYODB_GUARD } from '../../common/outbound/outbound-guards';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { byodbHost, postgresOptions } from '../../database/data-source-options';
import { DatabaseIdentity, databaseIdentity, isSameDatabase } from './database-identity.util';
import { TenantError } from './tenants.errors';
import { BYODB_CONNECT_TIMEOUT_MS, OWNER_TABLE } from './tenants.constants';

/**
 * Brings a tenant's own database (BYODB) to the tenant migration set, both
 * when the tenant connects it and when Baton's migrations move on later.
 */
@Injectable()
export class OwnDatabaseMigrator {
  private readonly logger = new Logger('tenants');

  /** Identity of the control plane's database, read once. */
  private controlIdentity?: Promise<DatabaseIdentity>;

  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(BYODB_GUARD) private readonly byodbGuard: OutboundGuard,
  ) {}

  /**
   * Opens the tenant's own database at the address the outbound guard checked,
   * refuses Baton's own control-plane database and a database another
   * workspace has claimed, claims it for `tenantId`, and migrates schema
   * `baton` there. Any failure is the one uniform refusal; the real reason is
   * logged for the operator, without the URL.
   */
  async migrate(url: string, tenantId: string): Promise<void> {
    let own: DataSource | undefined;
    try {
      const target = await this.byodbGuard.check(byodbHost(url));
      own = await new DataSource(postgresOptions(url, 1, false, target, BYODB_CONNECT_TIMEOUT_MS)).initialize();
      const runner = own.createQueryRunner();
      try {
        await runner.connect();
        if (await this.isControlPlane(await databaseIdentity(runner))) throw new Error("the database is Baton's control plane");
        await this.claim(runner, tenantId);
        await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: BYODB_SCHEMA, role: null });
      } finally {
        await runner.release();
      }
    } catch (error) {
      const reason = redactSecrets((error as Error).message ?? String(error)).replace(url, '[url]');
      this.logger.warn({ msg: 'tenant database refused', tenant_id: tenantId, reason });
      throw TenantError.databaseRefused(error);
    } finally {
      if (own?.isInitialized) await own.destroy().catch(() => undefined);
    }
  }

  /** Records `tenantId` as the database's owner, or throws when another workspace owns it already. */
  private async claim(runner: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, tenantId: string): Promise<void> {
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(BYODB_SCHEMA)}`);
    const owner = `${quoteIdent(BYODB_SCHEMA)}.${quoteIdent(OWNER_TABLE)}`;
    await runner.query(
      `CREATE TABLE IF NOT EXISTS ${owner} (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), tenant_id text NOT NULL, claimed_at timestamptz NOT NULL DEFAULT now())`,
    );
    // One row at most: of two workspaces claiming one database at once, the second insert does nothing and sees the first.
    await runner.query(`INSERT INTO ${owner} (tenant_id) VALUES ($1) ON CONFLICT (only_row) DO NOTHING`, [tenantId]);
    const [claim] = (await runner.query(`SELECT tenant_id FROM ${owner}`)) as { tenant_id: string }[];
    if (claim?.tenant_id !== tenantId) throw new Error('the database is claimed by another workspace');
  }

  /** Whether `identity` is the control plane's own database. */
  private async isControlPlane(identity: DatabaseIdentity): Promise<boolean> {
    this.controlIdentity ??= databaseIdentity(this.source);
    this.controlIdentity.catch(() => (this.controlIdentity = undefined));
    return isSameDatabase(identity, await this.controlIdentity);
  }
}
