import type Database from 'better-sqlite3';
import { QueryRunner } from 'typeorm';
import { TENANT_MIGRATIONS } from '../../migrations/tenant';
import { runMigrations } from '../../libs/tenancy';

/**
 * Applies the tenant migration set to `file`, as a self-hosted Baton's file has it. Through
 * better-sqlite3 directly rather than a TypeORM data source: the set is all the migrations need
 * of a query runner, and opening a data source costs the event loop a tenth of a second.
 */
export async function applyTenantMigrations(file: Database.Database): Promise<void> {
  const run = async (sql: string, params: unknown[] = []) => {
    const statement = file.prepare(sql);
    return statement.reader ? statement.all(...params) : (statement.run(...params), []);
  };
  const runner = {
    connection: { options: { type: 'better-sqlite3' } },
    query: run,
    startTransaction: async () => void file.exec('BEGIN'),
    commitTransaction: async () => void file.exec('COMMIT'),
    rollbackTransaction: async () => void file.exec('ROLLBACK'),
  } as unknown as QueryRunner;
  await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'sqlite', schema: null, role: null });
}
