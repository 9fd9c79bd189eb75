import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONTROL_MIGRATIONS } from '../../migrations/control';
import { SITE_MIGRATIONS } from '../../migrations/site';
import { TENANT_MIGRATIONS } from '../../migrations/tenant';
import { CONTROL_SCHEMA, LOCAL_SCHEMA, type MigrationClass, quoteIdent, runMigrations } from '../../libs/tenancy';
import { AppConfig } from '../config/app-config';
import { acquireMigrationLock, describeHolder, lockLabel, MIGRATION_LOCK } from './migration-lock';

const logger = new Logger('database');

/** Where the shared database's migrations go and which sets, in order. */
export function sharedMigrationTarget(config: AppConfig): { schema: string | null; set: MigrationClass[] } {
  if (config.databaseType === 'sqlite') return { schema: null, set: [...TENANT_MIGRATIONS, ...SITE_MIGRATIONS] };
  return config.isHosted ? { schema: CONTROL_SCHEMA, set: [...CONTROL_MIGRATIONS, ...SITE_MIGRATIONS] } : { schema: LOCAL_SCHEMA, set: [...TENANT_MIGRATIONS, ...SITE_MIGRATIONS] };
}

/** Names of the shared database's migrations not applied yet (reads only). */
export async function pendingSharedMigrations(source: DataSource, config: AppConfig): Promise<string[]> {
  const { schema, set } = sharedMigrationTarget(config);
  const table = schema ? `${quoteIdent(schema)}.baton_migrations` : 'baton_migrations';
  const exists =
    config.databaseType === 'sqlite'
      ? ((await source.query("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'baton_migrations'")) as { n: number }[])[0].n > 0
      : ((await source.query('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.baton_migrations`])) as { ok: boolean }[])[0].ok;
  const done = new Set(exists ? ((await source.query(`SELECT name FROM ${table}`)) as { name: string }[]).map((r) => r.name) : []);
  return set.map((Migration) => new Migration().name ?? Migration.name).filter((name) => !done.has(name));
}

/**
 * Applies the shared database's pending migrations: the SQLite file, the local tenant's schema
 * (self-hosted on Postgres), or the control schema (hosted); the site set (instance content)
 * follows the main set in each case. The caller holds the migration lock on Postgres.
 * Returns the names applied.
 */
export async function applySharedMigrations(source: DataSource, config: AppConfig): Promise<string[]> {
  const { schema, set } = sharedMigrationTarget(config);
  const runner = source.createQueryRunner();
  try {
    await runner.connect();
    if (config.databaseType === 'sqlite') return await runMigrations(runner, set, { dialect: 'sqlite', schema: null, role: null });
    await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema as string)}`);
    return await runMigrations(runner, set, { dialect: 'postgres', schema, role: null });
  } finally {
    await runner.release();
  }
}

/**
 * Brings the shared database up to date at boot. On Postgres it first waits for the migration
 * lock, however long another runner (`npm run migrate`, another instance starting) holds it.
 * Hosted tenants' schemas are upgraded by the tenants module.
 */
export async function migrateSharedDatabase(source: DataSource, config: AppConfig): Promise<void> {
  if (config.databaseType === 'sqlite') {
    await applySharedMigrations(source, config);
    return;
  }
  const lock = await acquireMigrationLock(source, {
    waitMs: Number.POSITIVE_INFINITY,
    label: lockLabel('baton start'),
    onWait: (holder) => logger.warn({ msg: 'waiting for the migration lock', holder: holder ? describeHolder(holder) : null }),
  });
  try {
    await applySharedMigrations(source, config);
  } finally {
    await lock.release();
  }
}

export { MIGRATION_LOCK };
