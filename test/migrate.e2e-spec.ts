import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SecretBox } from '../libs/tenancy';
import { CONTROL_MIGRATIONS } from '../migrations/control';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { MIGRATION_LOCK } from '../src/database/migration-lock';
import { createBareTenants, migrateEnv, runMigrate, schemaOf } from './support/migrate-cli';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { waitUntil } from './support/wait';

const LATEST = new TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 1]().name;

describePostgres('npm run migrate: the control plane and every tenant, under one lock', () => {
  let db: TestDatabase;
  let own: TestDatabase;
  let env: Record<string, string>;

  const migratedTo = async (ids: string[]) =>
    Object.fromEntries(
      (await db.query<{ id: string; migrated_to: string | null }>('SELECT id, migrated_to FROM control.tenants WHERE id = ANY($1)', [ids])).map((r) => [r.id, r.migrated_to]),
    );
  const hasTable = async (schema: string, table: string) => (await db.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [`${schema}.${table}`]))[0].ok;

  beforeAll(async () => {
    db = await TestDatabase.create();
    own = await TestDatabase.create();
    env = { ...migrateEnv(db.url), SERVICE_BYODB_ALLOWED_HOSTS: '127.0.0.1' };
  });
  afterAll(async () => {
    await db?.drop();
    await own?.drop();
  });

  test('--dry-run on a new database lists every control-plane migration and creates nothing', async () => {
    const run = await runMigrate(env, ['--dry-run']);
    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({ dry_run: true, mode: 'hosted', shared: { target: 'control' }, tenants: { total: 0, behind: 0 } });
    expect(run.summary.shared.pending).toEqual(expect.arrayContaining(CONTROL_MIGRATIONS.map((M) => new M().name)));
    expect(run.stderr).toContain('nothing was changed (dry run)');
    expect(await db.query("SELECT 1 FROM pg_namespace WHERE nspname = 'control'")).toEqual([]);
  });

  test('one broken tenant is named with its error and skipped; the others are migrated; the exit status is 1', async () => {
    const first = await runMigrate(env);
    expect(first.code).toBe(0);
    expect(first.summary).toMatchObject({ migrated: true, shared: { target: 'control' }, tenants: { total: 0, behind: 0, migrated: 0, failed: 0 } });

    const ids = await createBareTenants(db, 12);
    const sealed = new SecretBox(env.SESSION_SECRET, 'byodb-connection-url').seal(own.url);
    await db.query('UPDATE control.tenants SET db_url_sealed = $1 WHERE id = $2', [sealed, ids[11]]);
    const broken = ids[4];
    // A table in the way of the first tenant migration: its CREATE TABLE fails.
    await db.query(`CREATE TABLE "${schemaOf(broken)}".projects (x int)`);

    const dry = await runMigrate(env, ['--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.summary.tenants).toMatchObject({ total: 12, behind: 12 });
    expect(dry.summary.tenants.pending.find((t: { tenant_id: string }) => t.tenant_id === ids[11])).toMatchObject({ storage: 'own-database' });
    expect(dry.summary.tenants.pending.every((t: { pending: string[] }) => t.pending.length === TENANT_MIGRATIONS.length)).toBe(true);
    expect(Object.values(await migratedTo(ids)).every((m) => m === null)).toBe(true);

    const run = await runMigrate(env, ['--concurrency', '3']);
    expect(run.code).toBe(1);
    expect(run.summary).toMatchObject({ migrated: false, tenants_behind: 1, tenants: { total: 12, behind: 12, migrated: 11, failed: 1 } });
    expect(run.summary.failed).toEqual([{ tenant_id: broken, error: expect.stringMatching(/"projects" already exists/) }]);
    expect(run.stderr).toMatch(new RegExp(`tenant ${broken} failed: .*"projects" already exists`));
    // Progress: plain lines (stderr is no terminal) with done/total, rate and ETA, ending at 12/12.
    expect(run.stderr).toMatch(/^12\/12 tenants \(100%\) · [\d.]+\/s · ETA 0s$/m);
    expect(run.stderr).toMatch(/11 of 12 tenants migrated in [\d.]+ s; 1 failed: /);

    const after = await migratedTo(ids);
    for (const id of ids) expect([id, after[id]]).toEqual([id, id === broken ? null : LATEST]);
    for (const id of ids.slice(0, 11).filter((id) => id !== broken)) expect(await hasTable(schemaOf(id), 'mcp_tasks')).toBe(true);
    expect(await own.query<{ ok: boolean }>("SELECT to_regclass('baton.mcp_tasks') IS NOT NULL AS ok")).toEqual([{ ok: true }]);
    // The broken tenant's migrations rolled back as one: nothing half-applied.
    expect(await hasTable(schemaOf(broken), 'baton_migrations')).toBe(false);

    await db.query(`DROP TABLE "${schemaOf(broken)}".projects`);
    const again = await runMigrate(env);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ migrated: true, tenants_behind: 0, tenants: { total: 12, behind: 1, migrated: 1, failed: 0 }, failed: [] });
    expect((await migratedTo([broken]))[broken]).toBe(LATEST);
    expect((await runMigrate(env)).summary.tenants).toMatchObject({ behind: 0, migrated: 0 });
  }, 120_000);

  test('a runner that finds the lock held waits, names the holder, and gives up after --lock-wait with status 75', async () => {
    const ids = await createBareTenants(db, 3);
    const holder = new Client({ connectionString: db.url, application_name: 'lock holder of the suite' });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);

      const refused = await runMigrate(env, ['--lock-wait', '1']);
      expect(refused.code).toBe(75);
      expect(refused.stderr).toMatch(/another runner holds the migration lock \("lock holder of the suite", backend pid \d+/);
      expect(refused.summary).toMatchObject({ migrated: false, error: 'migration lock held by another runner', holder: { application_name: 'lock holder of the suite' } });
      expect(Object.values(await migratedTo(ids))).toEqual([null, null, null]);

      let waiting = false;
      const patient = runMigrate(env, ['--lock-wait', '60'], (err) => (waiting ||= err.includes('waiting for the migration lock')));
      await waitUntil(() => waiting, 30_000, 'the runner to report that it waits');
      expect(Object.values(await migratedTo(ids))).toEqual([null, null, null]);
      await holder.query('COMMIT');
      const run = await patient;
      expect(run.code).toBe(0);
      expect(run.summary.tenants).toMatchObject({ behind: 3, migrated: 3, failed: 0 });
    } finally {
      await holder.end();
    }
  }, 120_000);

  test('two runners started together: one migrates, the other waits for it and finds nothing left', async () => {
    const ids = await createBareTenants(db, 8);
    const [a, b] = await Promise.all([runMigrate(env, ['--concurrency', '2']), runMigrate(env, ['--concurrency', '2'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect([a.summary.tenants.migrated, b.summary.tenants.migrated].sort()).toEqual([0, 8]);
    expect([a.summary.tenants.failed, b.summary.tenants.failed]).toEqual([0, 0]);
    expect(Object.values(await migratedTo(ids)).every((m) => m === LATEST)).toBe(true);
  }, 120_000);

  test('a control plane that cannot be migrated: status 3, its error, and no tenant tried', async () => {
    const other = await TestDatabase.create();
    try {
      // A table in the way of the first control-plane migration.
      await other.query('CREATE SCHEMA control; CREATE TABLE control.tenants (x int)');
      const run = await runMigrate(migrateEnv(other.url));
      expect(run.code).toBe(3);
      expect(run.summary).toMatchObject({ migrated: false, shared: { target: 'control', applied: [], error: expect.stringMatching(/already exists/) } });
      expect(run.summary.tenants).toBeUndefined();
      expect(run.stderr).toMatch(/shared database \(control\) failed: .*already exists.*; no tenant was migrated/);
      expect(await other.query("SELECT to_regclass('control.baton_migrations') AS t")).toEqual([{ t: null }]);
    } finally {
      await other.drop();
    }
  });

  test('bad arguments: status 2 and what is wrong, before touching the database', async () => {
    const unknown = await runMigrate(env, ['--dryrun']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^unknown argument: --dryrun/);
    const zero = await runMigrate(env, ['--concurrency', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/^--concurrency takes a whole number from 1 to 32/);
  });
});

describe('npm run migrate on a self-hosted SQLite file', () => {
  test('applies the tenant and site sets once, then finds nothing to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-migrate-'));
    try {
      const env = { SERVICE_DATA_DIR: dir };
      const dry = await runMigrate(env, ['--dry-run']);
      expect(dry.summary).toMatchObject({ dry_run: true, database: 'sqlite', mode: 'self-hosted', shared: { target: 'sqlite' } });
      expect(dry.summary.shared.pending).toContain(LATEST);
      const first = await runMigrate(env);
      expect(first.code).toBe(0);
      expect(first.summary).toMatchObject({ migrated: true, database: 'sqlite', shared: { target: 'sqlite' } });
      expect(first.summary.shared.applied).toContain(LATEST);
      const second = await runMigrate(env);
      expect(second.summary).toMatchObject({ migrated: true, shared: { applied: [] } });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
