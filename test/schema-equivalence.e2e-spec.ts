import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runMigrations } from '../libs/tenancy';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';

interface ColumnShape {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
}

interface IndexShape {
  table: string;
  name: string;
  unique: boolean;
}

/** Types that mean the same thing to Baton on both drivers. */
function canonicalType(declared: string): string {
  const t = declared
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .trim();
  if (['uuid'].includes(t)) return 'id';
  if (['varchar', 'character varying', 'text', 'character', 'char', 'bpchar'].includes(t)) return 'text';
  if (['timestamptz', 'timestamp with time zone', 'datetime'].includes(t)) return 'timestamp';
  if (['integer', 'int', 'bigint', 'smallint'].includes(t)) return 'integer';
  if (['boolean', 'bool'].includes(t)) return 'boolean';
  if (['real', 'double precision', 'numeric', 'float'].includes(t)) return 'number';
  if (['jsonb', 'json'].includes(t)) return 'json';
  return t;
}

/** SQLite has no uuid type: an id column is varchar(36) there. */
function sqliteCanonical(declared: string): string {
  return /^varchar\(36\)$/i.test(declared.trim()) ? 'id' : canonicalType(declared);
}

describePostgres('tenant migrations give equivalent schemas on SQLite and Postgres', () => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await TestDatabase.create();
    dir = mkdtempSync(join(tmpdir(), 'baton-schema-'));
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('same tables, columns, column types, nullability and indexes', async () => {
    const sqlite = await new DataSource({ type: 'better-sqlite3', database: join(dir, 's.db') }).initialize();
    const pg = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    try {
      const lite = sqlite.createQueryRunner();
      await runMigrations(lite, TENANT_MIGRATIONS, { dialect: 'sqlite', schema: null, role: null });
      const pgRunner = pg.createQueryRunner();
      await pgRunner.query('CREATE SCHEMA t_equiv');
      await runMigrations(pgRunner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: 't_equiv', role: null });
      await lite.release();
      await pgRunner.release();

      const liteTables: { name: string }[] = await sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name");
      // Full-text search is each dialect's own machinery (an FTS5 table and its shadow tables on
      // SQLite, a stored tsvector column and its GIN index on Postgres): named *_fts*, and left out of
      // the comparison.
      const isFts = (name: string) => /_fts(_|$)/.test(name);
      liteTables.splice(0, liteTables.length, ...liteTables.filter((t) => !isFts(t.name)));
      const liteColumns: ColumnShape[] = [];
      const liteIndexes: IndexShape[] = [];
      for (const { name } of liteTables) {
        const cols: { name: string; type: string; notnull: number; pk: number }[] = await sqlite.query(`PRAGMA table_info("${name}")`);
        for (const c of cols) liteColumns.push({ table: name, column: c.name, type: sqliteCanonical(c.type), nullable: !c.notnull && !c.pk });
        const idx: { name: string; unique: number; origin: string }[] = await sqlite.query(`PRAGMA index_list("${name}")`);
        for (const i of idx.filter((i) => i.origin === 'c')) liteIndexes.push({ table: name, name: i.name, unique: Boolean(i.unique) });
      }

      const pgColumns: ColumnShape[] = (
        await pg.query(
          `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_schema = 't_equiv' ORDER BY table_name, ordinal_position`,
        )
      )
        .map((c: { table_name: string; column_name: string; data_type: string; is_nullable: string }) => ({
          table: c.table_name,
          column: c.column_name,
          type: canonicalType(c.data_type),
          nullable: c.is_nullable === 'YES',
        }))
        .filter((c: ColumnShape) => !isFts(c.column));
      const pgIndexes: IndexShape[] = (
        await pg.query(
          `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary
             FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid
             JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = 't_equiv'`,
        )
      )
        .filter((i: { primary: boolean; name: string }) => !i.primary && !isFts(i.name))
        .map((i: { table: string; name: string; unique: boolean }) => ({ table: i.table, name: i.name, unique: i.unique }));

      const sortColumns = (cols: ColumnShape[]) => [...cols].sort((x, y) => `${x.table}.${x.column}`.localeCompare(`${y.table}.${y.column}`));
      const sortIndexes = (idx: IndexShape[]) => [...idx].sort((x, y) => x.name.localeCompare(y.name));
      // The migrations table is created by the runner in each dialect's own words; compare it too.
      expect(sortColumns(liteColumns)).toEqual(sortColumns(pgColumns));
      expect(sortIndexes(liteIndexes)).toEqual(sortIndexes(pgIndexes.filter((i) => !i.name.endsWith('_pkey') && !i.name.endsWith('_key'))));
      expect(liteTables.map((t) => t.name).sort()).toEqual([...new Set(pgColumns.map((c) => c.table))].sort());
    } finally {
      await sqlite.destroy();
      await pg.destroy();
    }
  });
});
