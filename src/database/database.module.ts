import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboundGuard } from '../../libs/outbound-guard';
import { Availability, AvailabilityChange, ByodbPools, poolOf, SecretBox, TenantDb, TenantServers } from '../../libs/tenancy';
import { BYODB_GUARD } from '../common/outbound/outbound-guards';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { sealerFor } from '../common/sealer';
import { Metrics } from '../common/observability/metrics';
import { migrateSharedDatabase } from './database-migrator';
import { byodbHost, postgresOptions, sharedDataSourceOptions, tenantDbLimits, tenantServerOptions } from './data-source-options';

export const SHARED_DATA_SOURCE = Symbol('SHARED_DATA_SOURCE');

const logger = new Logger('database');

/** An outage is two lines: when Baton finds a database unavailable, and when it answers again. */
function logAvailability(change: AvailabilityChange) {
  const database =
    change.database === 'shared'
      ? { database: 'shared' }
      : change.database.startsWith('server:')
        ? { database: 'tenant server', server: change.database.slice('server:'.length) }
        : { database: 'tenant', tenant_id: change.database };
  if (change.state === 'down') logger.warn({ msg: 'database unavailable: requests that need it answer 503', ...database, reason: change.reason });
  else logger.log({ msg: 'database available again', ...database, down_ms: change.downMs, failed_units_of_work: change.failures });
}
export const CONNECTION_SECRET_BOX = Symbol('CONNECTION_SECRET_BOX');

@Global()
@Module({
  providers: [
    {
      provide: SHARED_DATA_SOURCE,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const source = await new DataSource(sharedDataSourceOptions(config)).initialize();
        try {
          await migrateSharedDatabase(source, config);
        } catch (error) {
          // The database went away mid-migration: main waits and boots again, so leave no pool behind.
          await source.destroy().catch(() => undefined);
          throw error;
        }
        return source;
      },
    },
    {
      provide: CONNECTION_SECRET_BOX,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => sealerFor(config, 'byodb-connection-url'),
    },
    {
      provide: ByodbPools,
      inject: [APP_CONFIG, BYODB_GUARD],
      useFactory: (config: AppConfig, guard: OutboundGuard) =>
        new ByodbPools({
          poolSize: config.byodbPoolSize,
          maxPools: config.byodbMaxPools,
          // Checked again at every opening: what the name resolves to may have changed since connect-db.
          dataSourceOptions: async (url, size) => postgresOptions(url, size, false, await guard.check(byodbHost(url))),
        }),
    },
    {
      provide: TenantServers,
      inject: [SHARED_DATA_SOURCE, APP_CONFIG],
      useFactory: (source: DataSource, config: AppConfig) =>
        new TenantServers(source, config.dbUrl, config.isHosted ? config.tenantDbUrls : [], (url) => tenantServerOptions(config, url, false)),
    },
    {
      provide: TenantDb,
      inject: [SHARED_DATA_SOURCE, APP_CONFIG, ByodbPools, CONNECTION_SECRET_BOX, TenantServers],
      useFactory: (source: DataSource, config: AppConfig, pools: ByodbPools, box: SecretBox, servers: TenantServers) =>
        new TenantDb(source, config.databaseType, pools, box, tenantDbLimits(config), new Availability(logAvailability), servers),
    },
  ],
  exports: [SHARED_DATA_SOURCE, CONNECTION_SECRET_BOX, ByodbPools, TenantServers, TenantDb],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly pools: ByodbPools,
    private readonly servers: TenantServers,
    metrics: Metrics,
  ) {
    const shared = source.options.type === 'postgres' ? poolOf(source) : undefined;
    if (shared) {
      metrics.gauge(
        'baton_db_pool_connections',
        'Connections of the shared Postgres pool, by state',
        () => ({ total: shared.totalCount, idle: shared.idleCount, waiting: shared.waitingCount }),
        'state',
      );
    }
    metrics.gauge('baton_byodb_pools', "Open pools of tenants' own databases", () => this.pools.openCount);
    if (servers.list().length > 1) {
      const perServer = (read: (pool: ReturnType<typeof poolOf>) => number) => () => Object.fromEntries([...servers.open()].map(([key, server]) => [key, read(poolOf(server))]));
      metrics.gauge(
        'baton_tenant_server_connections',
        'Open connections of the pool of each server holding tenant schemas',
        perServer((p) => p.totalCount),
        'server',
      );
      metrics.gauge(
        'baton_tenant_server_waiting',
        'Work waiting for a connection of each server holding tenant schemas',
        perServer((p) => p.waitingCount),
        'server',
      );
    }
  }

  async onApplicationShutdown() {
    await this.pools.closeAll();
    await this.servers.closeAll();
    if (this.source.isInitialized) await this.source.destroy();
  }
}
