import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SecretBox, TenantServers } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CONNECTION_SECRET_BOX, SHARED_DATA_SOURCE } from '../../database/database.module';
import { acquireMigrationLock, lockLabel, MigrationLockBusy } from '../../database/migration-lock';
import { OwnDatabaseMigrator } from './own-database-migrator.service';
import { tenantsBehind, upgradeTenant } from './tenant-upgrade';

/** Keeps every hosted tenant's schema, or its own database, at the latest tenant migration. */
@Injectable()
export class TenantMigrations {
  private readonly logger = new Logger('tenants');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(CONNECTION_SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly ownDatabases: OwnDatabaseMigrator,
    private readonly servers: TenantServers,
  ) {}

  /**
   * At boot: brings every tenant whose schema is behind up to date, one at a time, under the
   * migration lock. When another runner holds the lock (`npm run migrate`, another instance
   * starting), that runner is upgrading the tenants: this instance starts without waiting.
   */
  async upgradeBehind(): Promise<number> {
    if (!this.config.isHosted) return 0;
    const stale = await tenantsBehind(this.source);
    if (stale.length === 0) return 0;
    let lock;
    try {
      lock = await acquireMigrationLock(this.source, { waitMs: 0, label: lockLabel('baton start') });
    } catch (error) {
      if (!(error instanceof MigrationLockBusy)) throw error;
      this.logger.log({ msg: 'tenant schemas behind: another runner holds the migration lock and upgrades them', tenants_behind: stale.length });
      return 0;
    }
    let upgraded = 0;
    try {
      // Read again under the lock: the runner that had it may have done some.
      for (const tenant of await tenantsBehind(this.source)) {
        const outcome = await upgradeTenant({ source: this.source, servers: this.servers, secretBox: this.secretBox, ownDatabases: this.ownDatabases }, tenant);
        if (outcome.ok) upgraded += 1;
        else this.logger.error({ msg: 'tenant schema upgrade failed', tenant_id: tenant.id, error: outcome.error });
      }
    } finally {
      await lock.release();
    }
    return upgraded;
  }

  /** Tenants whose schema or database is behind the tenant migration set (0 when all are current). */
  async countBehind(): Promise<number> {
    return this.config.isHosted ? (await tenantsBehind(this.source)).length : 0;
  }
}
