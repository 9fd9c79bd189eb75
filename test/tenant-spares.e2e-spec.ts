import { join } from 'node:path';
import { serverKeyOf } from '../libs/tenancy';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { TenantDirectory } from '../src/modules/tenants/tenant-directory.service';
import { TenantSpares } from '../src/modules/tenants/tenant-spares.service';
import { freshEmail, signIn } from './support/accounts';
import { adminClient, ADMIN_PASSWORD } from './support/admin';
import { Http } from './support/http';
import { createBareTenants, migrateEnv, runBuiltCli, runMigrate, schemaOf } from './support/migrate-cli';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { REPO_ROOT } from './support/processes';
import { describePostgres } from './support/suites';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/**
 * Hosted Baton keeping SERVICE_TENANT_SPARES tenants made in advance on each server new tenants may
 * go to (two databases of the shared cluster here, the control plane on a third): the reserve fills,
 * a new workspace (provisioned or signed up) is a spare handed out and served at once, the reserve
 * refills, spares are no workspace anywhere, `npm run migrate` migrates them and a spare behind the
 * migrations is never handed out. `npm run migrate` runs from dist/: build first.
 */

const LATEST = new TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 1]().name;
const EARLIER = new TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 2]().name;
const SPARES = 2;

interface Row {
  id: string;
  name: string;
  status: string;
  db_server: string | null;
  migrated_to: string | null;
}

describePostgres('tenants made in advance (SERVICE_TENANT_SPARES)', () => {
  let db: TestDatabase;
  let servers: TestDatabase[];
  let keys: string[];
  let app: TestApp;
  let env: Record<string, string>;

  const rows = () => db.query<Row>('SELECT id, name, status, db_server, migrated_to FROM control.tenants ORDER BY created_at, id');
  const spares = async () => (await rows()).filter((r) => r.status === 'spare');
  const active = async () => (await rows()).filter((r) => r.status === 'active');
  const schemasOn = async (server: TestDatabase) =>
    (await server.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%' ORDER BY 1")).map((r) => r.nspname);
  /** Spares on each server, once this instance's reserve is full again. */
  const reserve = async () => {
    await waitUntil(
      async () => {
        const now = await spares();
        return keys.every((k) => now.filter((s) => s.db_server === k && s.migrated_to === LATEST).length >= SPARES);
      },
      60_000,
      'a full reserve',
    );
    await app.app.get(TenantSpares).settled();
    return spares();
  };

  beforeAll(async () => {
    [db, ...servers] = await Promise.all([TestDatabase.create(), TestDatabase.create(), TestDatabase.create()]);
    keys = servers.map((s) => serverKeyOf(s.url));
    env = hostedEnv(db.url, {
      SERVICE_TENANT_DB_URLS: servers.map((s) => s.url).join(','),
      SERVICE_TENANT_SPARES: String(SPARES),
      SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      SERVICE_SWEEP_INTERVAL_SECONDS: '0',
    });
    app = await startApp(env);
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    for (const server of servers ?? []) await server.drop();
    await db?.drop();
  });

  test('the reserve fills to SERVICE_TENANT_SPARES on each server: rows with status spare, migrated to the latest, their schemas there', async () => {
    const made = await reserve();
    expect(made).toHaveLength(SPARES * keys.length);
    for (const [i, key] of keys.entries()) {
      const here = made.filter((s) => s.db_server === key);
      expect(here).toHaveLength(SPARES);
      expect(await schemasOn(servers[i])).toEqual(here.map((s) => schemaOf(s.id)).sort());
      for (const spare of here) {
        expect(spare).toMatchObject({ status: 'spare', migrated_to: LATEST });
        expect(await servers[i].query(`SELECT count(*)::int AS n FROM "${schemaOf(spare.id)}".projects`)).toEqual([{ n: 0 }]);
      }
    }
    expect(await schemasOn(db)).toEqual([]);
    expect(await active()).toEqual([]);
  }, 60_000);

  test('a provisioned tenant is a spare handed out: its id, its schema made before, its token served at once; the reserve refills', async () => {
    const before = await reserve();
    const started = Date.now();
    const { tenant_id, token } = await provisionTenant(app, 'Acme Robotics');
    const took = Date.now() - started;
    expect(before.map((s) => s.id)).toContain(tenant_id);
    const http = new Http(app.url, token);
    const project = await createProject(http, 'first');
    expect((await http.get('/projects')).body.map((p: { id: string }) => p.id)).toEqual([project]);
    const row = (await rows()).find((r) => r.id === tenant_id)!;
    expect(row).toMatchObject({ name: 'Acme Robotics', status: 'active', migrated_to: LATEST });
    const server = servers[keys.indexOf(row.db_server!)];
    expect(await server.query(`SELECT id FROM "${schemaOf(tenant_id)}".projects`)).toEqual([{ id: project }]);

    const after = await reserve();
    expect(after).toHaveLength(SPARES * keys.length);
    expect(after.map((s) => s.id)).not.toContain(tenant_id);
    expect(after.filter((s) => !before.some((b) => b.id === s.id))).toHaveLength(1);
    // Handing out is one statement and a token: far below making a tenant (about a second).
    expect(took).toBeLessThan(1000);
  }, 60_000);

  test('signing up opens a workspace that is a spare handed out; /me/workspaces lists it alone', async () => {
    const before = await reserve();
    const person = await signIn(app, freshEmail('ada'));
    expect(before.map((s) => s.id)).toContain(person.tenantId);
    const listed = await person.http.get('/me/workspaces');
    expect(listed.status).toBe(200);
    expect(listed.body.map((w: { id: string }) => w.id)).toEqual([person.tenantId]);
    expect(listed.body[0].name).toMatch(/workspace$/);
  }, 60_000);

  test('spares are no workspace: /admin health and stats count active tenants only, background jobs walk active tenants only, tenant:move refuses one', async () => {
    const left = await reserve();
    const workspaces = await active();
    expect(left.length).toBeGreaterThan(0);
    const admin = await adminClient(app);
    const health = await admin.get('/admin/health');
    expect(health.status).toBe(200);
    expect(health.body.workspaces).toBe(workspaces.length);
    const stats = await admin.get('/admin/stats');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ workspaces: workspaces.length, not_counted: 0 });
    const console = await admin.get('/admin');
    expect(console.status).toBe(200);
    for (const spare of left) expect(console.text).not.toContain(spare.id);
    const walked = (await app.app.get(TenantDirectory).listContexts()).map((c) => c.tenantId);
    expect(walked.sort()).toEqual(workspaces.map((w) => w.id).sort());
    for (const spare of left) expect(await app.app.get(TenantDirectory).contextOf(spare.id)).toBeUndefined();
    const spare = left[0];
    const to = servers[1 - keys.indexOf(spare.db_server!)].url;
    const move = await runBuiltCli(join(REPO_ROOT, 'dist/src/cli/tenant-move.js'), { ...migrateEnv(db.url), SERVICE_TENANT_DB_URLS: env.SERVICE_TENANT_DB_URLS }, [
      '--tenant',
      spare.id,
      '--to',
      to,
    ]);
    expect(move.code).toBe(2);
    expect(move.summary).toMatchObject({ tenant_id: spare.id, moved: false, error: `tenant ${spare.id} is a spare, made in advance and not yet a workspace: nothing to move` });
    expect((await spares()).find((s) => s.id === spare.id)).toMatchObject({ db_server: spare.db_server, status: 'spare' });
  }, 60_000);

  test('ten workspaces made at once are ten distinct tenants, each served; the reserve refills without overshooting', async () => {
    const before = await reserve();
    const made = await Promise.all(Array.from({ length: 10 }, (_, i) => provisionTenant(app, `Burst ${i}`)));
    const ids = made.map((m) => m.tenant_id);
    expect(new Set(ids).size).toBe(10);
    // As many spares as there were are handed out, each once; the rest are made there and then.
    expect(ids.filter((id) => before.some((s) => s.id === id))).toHaveLength(before.length);
    for (const { token } of made) expect((await new Http(app.url, token).post('/projects', { name: 'burst' })).status).toBe(201);
    const now = await active();
    for (const id of ids) expect(now.find((r) => r.id === id)).toMatchObject({ status: 'active', migrated_to: LATEST });
    const after = await reserve();
    for (const key of keys) expect(after.filter((s) => s.db_server === key)).toHaveLength(SPARES);
  }, 90_000);

  test('a spare behind the tenant migrations is not handed out; npm run migrate migrates spares, which are handed out again', async () => {
    await reserve();
    // A spare as an upgrade finds it (an empty schema, no migration), and the others recorded one behind.
    const [bare] = await createBareTenants(db, 1, { on: { key: keys[0], query: (sql) => servers[0].query(sql) } });
    await db.query("UPDATE control.tenants SET status = 'spare', name = 'spare' WHERE id = $1", [bare]);
    await db.query("UPDATE control.tenants SET migrated_to = $1 WHERE status = 'spare' AND id <> $2", [EARLIER, bare]);
    const behind = await spares();

    const fresh = await provisionTenant(app, 'Made now');
    expect(behind.map((s) => s.id)).not.toContain(fresh.tenant_id);
    expect((await spares()).map((s) => s.id)).toEqual(behind.map((s) => s.id));
    expect((await new Http(app.url, fresh.token).post('/projects', { name: 'now' })).status).toBe(201);
    await app.app.get(TenantSpares).settled();

    const run = await runMigrate({ ...migrateEnv(db.url), SERVICE_TENANT_DB_URLS: env.SERVICE_TENANT_DB_URLS });
    expect(run.code).toBe(0);
    expect(run.summary).toMatchObject({ migrated: true, tenants_behind: 0, failed: [], tenants: { behind: behind.length, migrated: behind.length, failed: 0 } });
    const migrated = await spares();
    expect(migrated.map((s) => s.id)).toEqual(behind.map((s) => s.id));
    for (const spare of migrated) expect(spare.migrated_to).toBe(LATEST);
    expect(await servers[0].query(`SELECT count(*)::int AS n FROM "${schemaOf(bare)}".projects`)).toEqual([{ n: 0 }]);

    const handed = await provisionTenant(app, 'From the reserve');
    expect(migrated.map((s) => s.id)).toContain(handed.tenant_id);
    expect((await new Http(app.url, handed.token).post('/projects', { name: 'again' })).status).toBe(201);
  }, 90_000);

  test('with SERVICE_TENANT_SPARES 0 (the suites default) no spare is made: a tenant is made when asked for', async () => {
    const other = await TestDatabase.create();
    const plain = await startApp(hostedEnv(other.url));
    try {
      const { tenant_id, token } = await provisionTenant(plain, 'Plain');
      expect((await new Http(plain.url, token).post('/projects', { name: 'plain' })).status).toBe(201);
      await plain.app.get(TenantSpares).settled();
      expect(await other.query('SELECT id, status FROM control.tenants')).toEqual([{ id: tenant_id, status: 'active' }]);
      expect((await other.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'")).map((r) => r.nspname)).toEqual([schemaOf(tenant_id)]);
    } finally {
      await plain.close();
      await other.drop();
    }
  }, 60_000);
});
