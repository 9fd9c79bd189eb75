import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { MigrationClass, runMigrations } from '../libs/tenancy/migration-runner';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';

/** What a schema holds, with its own name taken out so that two schemas compare. */
async function describeSchema(source: DataSource, schema: string): Promise<Record<string, string[]>> {
  const rows = async (sql: string) => ((await source.query(sql, [schema])) as { d: string }[]).map((r) => String(r.d).split(`${schema}.`).join('<schema>.'));
  return {
    columns: await rows(
      `SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') || ' ' || coalesce(generation_expression, '') AS d
       FROM information_schema.columns WHERE table_schema = $1 ORDER BY table_name, ordinal_position`,
    ),
    indexes: await rows('SELECT indexdef AS d FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname'),
    constraints: await rows(
      `SELECT c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS d
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = $1 ORDER BY c.conname`,
    ),
    triggers: await rows(
      `SELECT t.tgrelid::regclass::text || ' ' || t.tgname AS d
       FROM pg_trigger t JOIN pg_class r ON r.oid = t.tgrelid JOIN pg_namespace n ON n.oid = r.relnamespace
       WHERE n.nspname = $1 AND NOT t.tgisinternal ORDER BY t.tgname`,
    ),
    functions: await rows(
      `SELECT p.proname || ' ' || pg_get_function_result(p.oid) AS d FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = $1 ORDER BY 1`,
    ),
  };
}

/** The migrations applied the way they were before batching: each statement in its own round trip. */
async function migrateOneStatementAtATime(runner: QueryRunner, set: MigrationClass[], schema: string): Promise<void> {
  await runner.startTransaction();
  await runner.query(`SET LOCAL search_path TO "${schema}"`);
  for (const Migration of set) await new Migration().up(runner);
  await runner.commitTransaction();
}

describePostgres('migrations sent in batches on Postgres', () => {
  let db: TestDatabase;
  let source: DataSource;
  let runner: QueryRunner;

  beforeAll(async () => {
    db = await TestDatabase.create();
    source = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 2 } }).initialize();
  });
  beforeEach(async () => {
    runner = source.createQueryRunner();
    await runner.connect();
  });
  afterEach(async () => {
    await runner.release();
  });
  afterAll(async () => {
    await source?.destroy();
    await db?.drop();
  });

  test("a tenant's schema made in batches is the same as one made a statement at a time, and records every migration", async () => {
    await source.query('CREATE SCHEMA batched; CREATE SCHEMA plain');
    const applied = await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: 'batched', role: null });
    await migrateOneStatementAtATime(runner, TENANT_MIGRATIONS, 'plain');

    const names = TENANT_MIGRATIONS.map((Migration) => new Migration().name ?? Migration.name);
    expect(applied).toEqual(names);
    const recorded = (await source.query('SELECT name FROM batched.baton_migrations ORDER BY name')) as { name: string }[];
    expect(recorded.map((r) => r.name)).toEqual([...names].sort());

    const batched = await describeSchema(source, 'batched');
    const plain = await describeSchema(source, 'plain');
    // baton_migrations is the runner's own table: only the batched schema has it.
    const withoutLedger = (d: Record<string, string[]>) => Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v.filter((line) => !line.includes('baton_migrations'))]));
    expect(batched.columns.length).toBeGreaterThan(100);
    expect(withoutLedger(batched)).toEqual(withoutLedger(plain));
    // Run again: nothing left to apply.
    expect(await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: 'batched', role: null })).toEqual([]);
  });

  test('a read inside a migration, or a statement RETURNING rows, sees every statement queued before it, in order', async () => {
    let seen: unknown;
    let returned: unknown;
    class Fill implements MigrationInterface {
      name = 'Fill1';
      async up(q: QueryRunner): Promise<void> {
        await q.query('CREATE TABLE items (n int NOT NULL)');
        await q.query('INSERT INTO items (n) SELECT generate_series(1, 3)');
        await q.query('DELETE FROM items WHERE n = 2');
        seen = await q.query('SELECT n FROM items ORDER BY n');
        returned = await q.query('INSERT INTO items (n) VALUES (5) RETURNING n');
        await q.query('DELETE FROM items WHERE n = 5');
        await q.query('UPDATE items SET n = n * $1', [10]);
        await q.query('INSERT INTO items (n) VALUES (99)');
      }
      async down(): Promise<void> {}
    }
    await source.query('CREATE SCHEMA ordered');
    await runMigrations(runner, [Fill], { dialect: 'postgres', schema: 'ordered', role: null });
    expect(seen).toEqual([{ n: 1 }, { n: 3 }]);
    expect(returned).toEqual([{ n: 5 }]);
    expect(await source.query('SELECT n FROM ordered.items ORDER BY n')).toEqual([{ n: 10 }, { n: 30 }, { n: 99 }]);
  });

  test('a statement that fails in a batch leaves the schema as it was: no table, no migration recorded', async () => {
    class Good implements MigrationInterface {
      name = 'Good1';
      async up(q: QueryRunner): Promise<void> {
        await q.query('CREATE TABLE kept (id int PRIMARY KEY)');
      }
      async down(): Promise<void> {}
    }
    class Broken implements MigrationInterface {
      name = 'Broken2';
      async up(q: QueryRunner): Promise<void> {
        await q.query('CREATE TABLE other (id int)');
        await q.query('CREATE TABLE kept (id int)');
      }
      async down(): Promise<void> {}
    }
    await source.query('CREATE SCHEMA failing');
    await expect(runMigrations(runner, [Good, Broken], { dialect: 'postgres', schema: 'failing', role: null })).rejects.toThrow(/already exists/);
    const tables = (await source.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'failing'")) as unknown[];
    expect(tables).toEqual([]);
  });
});
