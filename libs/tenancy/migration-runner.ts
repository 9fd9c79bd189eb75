import { MigrationInterface, QueryRunner } from 'typeorm';
import { Dialect, forDialect, quoteIdent } from './sql';
import { StatementBatch } from './statement-batch';

export type MigrationClass = new () => MigrationInterface;

export interface MigrationTarget {
  dialect: Dialect;
  /** Schema to migrate (Postgres); null for SQLite. */
  schema: string | null;
  /** Role that will own the created objects (hosted tenants); null to keep the connecting user. */
  role: string | null;
}

const TABLE = 'baton_migrations';

/**
 * Applies the migrations of `set` that `target` has not recorded yet, in order,
 * inside one transaction on `runner`, and records each in the target's own
 * `baton_migrations` table. Returns the names applied. The caller holds any
 * cross-instance lock; this function only needs a fresh, connected runner.
 * On Postgres the statements travel in batches (StatementBatch): a new tenant's
 * schema takes a few round trips instead of some 300.
 */
export async function runMigrations(runner: QueryRunner, set: MigrationClass[], target: MigrationTarget): Promise<string[]> {
  const applied: string[] = [];
  await runner.startTransaction();
  try {
    if (target.dialect === 'postgres') {
      if (target.schema) await runner.query(`SET LOCAL search_path TO ${quoteIdent(target.schema)}`);
      if (target.role) await runner.query(`SET LOCAL ROLE ${quoteIdent(target.role)}`);
    }
    await runner.query(
      forDialect(target.dialect, {
        postgres: `CREATE TABLE IF NOT EXISTS ${TABLE} (name text PRIMARY KEY, applied_at timestamptz NOT NULL)`,
        sqlite: `CREATE TABLE IF NOT EXISTS ${TABLE} (name varchar PRIMARY KEY, applied_at datetime NOT NULL)`,
      }),
    );
    const rows: { name: string }[] = await runner.query(`SELECT name FROM ${TABLE}`);
    const done = new Set(rows.map((r) => r.name));
    const batch = target.dialect === 'postgres' ? new StatementBatch(runner) : undefined;
    for (const Migration of set) {
      const migration = new Migration();
      const name = migration.name ?? Migration.name;
      if (done.has(name)) continue;
      if (batch) {
        await migration.up(batch.runner);
        await batch.runner.query(`INSERT INTO ${TABLE} (name, applied_at) VALUES (${quoteLiteral(name)}, now())`);
      } else {
        await migration.up(runner);
        await runner.query(`INSERT INTO ${TABLE} (name, applied_at) VALUES (?, ?)`, [name, new Date().toISOString().replace('T', ' ').replace('Z', '')]);
      }
      applied.push(name);
    }
    await batch?.flush();
    await runner.commitTransaction();
    return applied;
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  }
}

/** A migration's name as an SQL string literal (names come from the code, but are quoted all the same). */
function quoteLiteral(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** Name of the newest migration in a set: what a fully migrated target has recorded last. */
export function latestMigrationName(set: MigrationClass[]): string {
  const last = set[set.length - 1];
  return new last().name ?? last.name;
}
