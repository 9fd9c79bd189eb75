import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { CONTROL_ENTITIES } from './control-entities';
import { TENANT_ENTITIES } from './tenant-entities';

/** Options of a Postgres data source (the shared cluster, or one BYODB database). */
export function postgresOptions(url: string, poolSize: number, withControlPlane: boolean): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: withControlPlane ? [...TENANT_ENTITIES, ...CONTROL_ENTITIES] : TENANT_ENTITIES,
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
    poolSize,
    extra: {
      max: poolSize,
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30000,
      application_name: 'baton',
    },
  };
}

/** Options of the shared data source this process talks to. */
export function sharedDataSourceOptions(config: AppConfig): DataSourceOptions {
  if (config.dbUrl) return postgresOptions(config.dbUrl, config.dbPoolSize, config.isHosted);
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: config.sqlitePath,
    entities: TENANT_ENTITIES,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    enableWAL: true,
    prepareDatabase: (db: { pragma: (s: string) => unknown }) => {
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
    },
  };
}
