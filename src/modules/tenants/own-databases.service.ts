import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BYODB_SCHEMA, ByodbPools, currentTenant, extendRequestDeadline, latestMigrationName, SecretBox, TenantDb } from '../../../libs/tenancy';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CONNECTION_SECRET_BOX, SHARED_DATA_SOURCE } from '../../database/database.module';
import { OwnDatabaseMigrator } from './own-database-migrator.service';
import { TenantResolver } from './tenant-resolver.service';
import { TenantRecord } from './tenant.entity';
import { TenantError } from './tenants.errors';
import { BYODB_CONNECT_TIMEOUT_MS, CONNECT_DB_DEADLINE_MS } from './tenants.constants';

/** Moves a hosted tenant to its own Postgres database (BYODB, `POST /workspace/connect-db`). */
@Injectable()
export class OwnDatabases {
  private readonly logger = new Logger('tenants');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(CONNECTION_SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly pools: ByodbPools,
    private readonly tenantDb: TenantDb,
    private readonly resolver: TenantResolver,
    private readonly migrator: OwnDatabaseMigrator,
  ) {}

  /**
   * Moves the current tenant to its own Postgres database: verifies the
   * connection, migrates the tenant schema there, stores the URL sealed, and
   * sends the tenant's requests there from then on. Refused while the tenant
   * still has projects in the shared database, so nothing is left behind.
   */
  async connect(url: string): Promise<{ connected: true; database: 'postgres'; schema: string }> {
    if (!this.config.isHosted) throw TenantError.notHosted('connecting your own database');
    const tenant = currentTenant();
    const projects = await this.tenantDb.transaction(async (m) => {
      const rows: { n: string | number }[] = await m.query('SELECT count(*) AS n FROM projects');
      return Number(rows[0]?.n ?? 0);
    });
    if (projects > 0 && !tenant.byodbUrlEncrypted) throw TenantError.workspaceNotEmpty(projects);

    const started = Date.now();
    // Migrating a database across the network may take longer than a request usually may.
    extendRequestDeadline(started + CONNECT_DB_DEADLINE_MS);
    try {
      await this.migrator.migrate(url, tenant.tenantId);
    } catch (error) {
      // Every refusal takes at least the connect timeout, whatever its cause.
      await new Promise((r) => setTimeout(r, Math.max(0, started + BYODB_CONNECT_TIMEOUT_MS - Date.now())));
      throw error;
    }
    await this.source
      .getRepository(TenantRecord)
      .update({ id: tenant.tenantId }, { db_url_sealed: this.secretBox.seal(url), migrated_to: latestMigrationName(TENANT_MIGRATIONS), updated_at: new Date() });
    this.resolver.forgetTenant(tenant.tenantId);
    await this.pools.close(tenant.tenantId);
    this.logger.log({ msg: 'tenant connected its own database', tenant_id: tenant.tenantId });
    return { connected: true, database: 'postgres', schema: BYODB_SCHEMA };
  }
}
