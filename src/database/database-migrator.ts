import { DataSource } from 'typeorm';
import { CONTROL_MIGRATIONS } from '../../migrations/control';
import { TENANT_MIGRATIONS } from '../../migrations/tenant';
import { CONTROL_SCHEMA, LOCAL_SCHEMA, quoteIdent, runMigrations } from '../../libs/tenancy';
import { AppConfig } from '../config/app-config';

/** Advisory lock key held while one instance migrates; others wait for it. */
const MIGRATION_LOCK = 0x6261746f; // "bato"

/**
 * Brings the shared database up to date at boot: the SQLite file, the local
 * tenant's schema (self-hosted on Postgres), or the control schema (hosted).
 * Hosted tenants' schemas are upgraded by the tenants module, which knows them.
 */
export async function migrateSharedDatabase(source: DataSource, config: AppConfig): Promise<void> {
  const runner = source.createQueryRunner();
  try {
    await runner.connect();
    if (config.databaseType === 'sqlite') {
      await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'sqlite', schema: null, role: null });
      return;
    }
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      const schema = config.isHosted ? CONTROL_SCHEMA : LOCAL_SCHEMA;
      await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await runMigrations(runner, config.isHosted ? CONTROL_MIGRATIONS : TENANT_MIGRATIONS, { dialect: 'postgres', schema, role: null });
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await runner.release();
  }
}

export { MIGRATION_LOCK };
