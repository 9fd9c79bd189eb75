import { serverKeyOf } from '../libs/tenancy';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { adminClient, ADMIN_PASSWORD } from './support/admin';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { createBareTenants, migrateEnv, runMigrate, schemaOf, SchemaServer } from './support/migrate-cli';
import { TestDatabase } from './support/pg-database';
import { describePrivatePostgres, PrivatePostgres } from './support/private-postgres';
import { createProject } from './support/projects';
import { tenantClient, TenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/**
 * Hosted Baton with tenant schemas on several Postgres servers (SERVICE_TENANT_DB_URLS), each a
 * cluster of the suite's own, the control plane on a fresh database of the shared one: where new
 * tenants land, that each tenant's data is on its server alone and out of other tenants' reach,
 * MCP, `npm run migrate` over every server, health and metrics per server, and a server that is
 * stopped or no longer configured. `npm run migrate` runs from dist/: build first.
 */

const LATEST = new TENANT_MIGRATIONS[TENANT_MIGRATIONS.length - 1]().name;
const METRICS_TOKEN = 'placement-scrape-token-5c1e9a';
/** Every cluster trusts local connections, so a password in the URL is accepted and must never be shown. */
const PASSWORD = 'placement-Secret-8q';

/** A server of the suite: a database on one of its clusters, named in SERVICE_TENANT_DB_URLS with a password. */
interface Server {
  cluster: PrivatePostgres;
  database: string;
  url: string;
  key: string;
}

function serverOn(cluster: PrivatePostgres, database: string): Server {
  const url = cluster.url(database).replace('postgres@', `postgres:${PASSWORD}@`);
  return { cluster, database, url, key: serverKeyOf(url) };
}

const query = <T = Record<string, unknown>>(server: Server, sql: string, params: unknown[] = []) => server.cluster.query<T>(sql, params, server.database);

/** Tenant schemas that exist in `server`'s database. */
async function schemasOn(server: Server | TestDatabase): Promise<string[]> {
  const sql = "SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%' ORDER BY 1";
  const rows = server instanceof TestDatabase ? await server.query<{ nspname: string }>(sql) : await query<{ nspname: string }>(server, sql);
  return rows.map((r) => r.nspname);
}

/** The schemas on `server` whose projects table holds project `id`. */
async function schemasHolding(server: Server | TestDatabase, id: string): Promise<string[]> {
  const schemas = await schemasOn(server);
  if (schemas.length === 0) return [];
  const sql = schemas.map((s) => `SELECT '${s}' AS schema FROM "${s}".projects WHERE id = $1`).join(' UNION ALL ');
  const rows = server instanceof TestDatabase ? await server.query<{ schema: string }>(sql, [id]) : await query<{ schema: string }>(server, sql, [id]);
  return rows.map((r) => r.schema);
}

/** Tenant ids by the placement the control plane records (`null` for its own database). */
async function placements(db: TestDatabase): Promise<Map<string | null, string[]>> {
  const rows = await db.query<{ id: string; db_server: string | null }>('SELECT id, db_server FROM control.tenants ORDER BY created_at');
  const by = new Map<string | null, string[]>();
  for (const r of rows) by.set(r.db_server, [...(by.get(r.db_server) ?? []), r.id]);
  return by;
}

/** What no answer, summary or log line may contain: a password, or a connection string. */
function expectNoCredentials(text: string) {
  expect(text).not.toContain(PASSWORD);
  expect(text).not.toMatch(/postgres(ql)?:\/\//);
}

describePrivatePostgres('tenants placed over several Postgres servers', () => {
  let clusters: PrivatePostgres[] = [];

  beforeAll(async () => {
    clusters = await Promise.all([0, 1, 2].map(() => PrivatePostgres.create()));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clusters.map((c) => c.destroy()));
  });

  describe('two servers named, the control plane apart', () => {
    let db: TestDatabase;
    let app: TestApp;
    let servers: Server[];
    const tenants: TenantClient[] = [];
    /** Each tenant's project, made over REST. */
    const projectOf = new Map<string, string>();
    /** Each tenant's placement, as the control plane records it. */
    const placed = new Map<string, string | null>();
    const serverOf = (tenant: TenantClient) => servers.findIndex((s) => s.key === placed.get(tenant.tenant_id));
    const on = (i: number) => tenants.filter((t) => serverOf(t) === i);

    beforeAll(async () => {
      servers = clusters.slice(0, 2).map((c) => serverOn(c, 'postgres'));
      db = await TestDatabase.create();
      app = await startApp(
        hostedEnv(db.url, {
          SERVICE_TENANT_DB_URLS: servers.map((s) => s.url).join(','),
          SERVICE_METRICS_TOKEN: METRICS_TOKEN,
          SERVICE_SWEEP_INTERVAL_SECONDS: '0',
        }),
      );
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await db?.drop();
    });

    test("ten new tenants made at once spread over the two servers (at most one apart, by the control plane's record and by the schemas there); each one's data is on its server alone", async () => {
      // All at once, as a burst of sign-ups: each placement counts the tenants still being made.
      tenants.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => tenantClient(app, `Placed ${i}`)))));
      const by = await placements(db);
      for (const [server, ids] of by) for (const id of ids) placed.set(id, server);
      expect([...by.keys()].sort()).toEqual(servers.map((s) => s.key).sort());
      const counts = servers.map((s) => by.get(s.key)!.length);
      expect(counts[0] + counts[1]).toBe(10);
      expect(Math.abs(counts[0] - counts[1])).toBeLessThanOrEqual(1);
      for (const server of servers) expect(await schemasOn(server)).toEqual(by.get(server.key)!.map(schemaOf).sort());
      expect(await schemasOn(db)).toEqual([]);

      for (const tenant of tenants) {
        const project = await createProject(tenant.http, `Data of ${tenant.tenant_id}`);
        projectOf.set(tenant.tenant_id, project);
        expect((await tenant.http.post(`/projects/${project}/goal`, { content: `Goal of ${tenant.tenant_id}` })).status).toBe(200);
        const home = servers[serverOf(tenant)];
        const schema = schemaOf(tenant.tenant_id);
        const rows = await query(home, `SELECT p.id, g.content FROM "${schema}".projects p JOIN "${schema}".goals g ON g.project_id = p.id`);
        expect(rows).toEqual([{ id: project, content: `Goal of ${tenant.tenant_id}` }]);
        expect(await schemasHolding(home, project)).toEqual([schema]);
        expect(await schemasHolding(servers[1 - serverOf(tenant)], project)).toEqual([]);
      }
    }, 60_000);

    test("a tenant's token never reaches another's data, on the same server or on the other", async () => {
      const [a, same] = on(0);
      const [other] = on(1);
      for (const [x, y] of [
        [a, same],
        [same, a],
        [a, other],
        [other, a],
      ]) {
        const theirs = projectOf.get(y.tenant_id)!;
        const list = (await x.http.get('/projects')).body.map((p: { id: string }) => p.id);
        expect(list).toEqual([projectOf.get(x.tenant_id)]);
        expect((await x.http.get(`/projects/${theirs}`)).status).toBe(404);
        expect((await x.http.get(`/projects/${theirs}/goal`)).status).toBe(404);
        expect((await x.http.post(`/projects/${theirs}/goal`, { content: 'taken over' })).status).toBe(404);
        expect((await x.http.post(`/projects/${theirs}/rename`, { name: 'taken over' })).status).toBe(404);
      }
      for (const t of [a, same, other]) expect((await t.http.get(`/projects/${projectOf.get(t.tenant_id)}/goal`)).body.content).toBe(`Goal of ${t.tenant_id}`);
    });

    test('MCP (the SDK client) works for tenants on either server, each in its own schema', async () => {
      for (const tenant of [on(0)[0], on(1)[0]]) {
        const home = servers[serverOf(tenant)];
        const client = await connectMcp(app.url, tenant.token);
        try {
          const created = await callTool(client, 'create_project', { name: `Over MCP ${tenant.tenant_id}` });
          expect(created.isError).toBe(false);
          const listed = await callTool(client, 'list_projects');
          expect(listed.value.map((p: { id: string }) => p.id).sort()).toEqual([projectOf.get(tenant.tenant_id), created.value.id].sort());
          expect(await schemasHolding(home, created.value.id)).toEqual([schemaOf(tenant.tenant_id)]);
          expect(await schemasHolding(servers[1 - serverOf(tenant)], created.value.id)).toEqual([]);
        } finally {
          await client.close();
        }
      }
    });

    test('/health/deep names each server by its place, down while its cluster is stopped, when only its tenants answer 503; /metrics has a gauge per server', async () => {
      const anonymous = new Http(app.url);
      const deep = await anonymous.get('/health/deep');
      expect(deep.status).toBe(200);
      expect(deep.body.components).toEqual({
        database: expect.objectContaining({ status: 'ok' }),
        tenant_server_1: expect.objectContaining({ status: 'ok' }),
        tenant_server_2: expect.objectContaining({ status: 'ok' }),
      });
      for (const s of servers) expect(deep.text).not.toContain(String(s.cluster.port));
      expectNoCredentials(deep.text);

      const metrics = await anonymous.get('/metrics', { authorization: `Bearer ${METRICS_TOKEN}` });
      expect(metrics.status).toBe(200);
      for (const s of servers) expect(metrics.text).toMatch(new RegExp(`^baton_tenant_server_connections\\{server="${s.key.replace(/[./]/g, '\\$&')}"\\} [1-9]\\d*$`, 'm'));
      expect(metrics.text).toContain('baton_tenant_server_waiting{server=');
      expectNoCredentials(metrics.text);

      const [near] = on(0);
      const [far] = on(1);
      await servers[1].cluster.stop('fast');
      try {
        const down = await anonymous.get('/health/deep');
        expect(down.status).toBe(503);
        expect(down.body.components.tenant_server_1.status).toBe('ok');
        expect(down.body.components.tenant_server_2).toMatchObject({ status: 'down' });
        expect(down.body.components.database.status).toBe('ok');
        expectNoCredentials(down.text);
        const refused = await far.http.get('/projects');
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE', retryable: true });
        expect((await near.http.get('/projects')).status).toBe(200);
      } finally {
        await servers[1].cluster.start();
      }
      await waitUntil(async () => (await anonymous.get('/health/deep')).status === 200, 10_000, 'the deep probe to find the server back');
      await waitUntil(async () => (await far.http.get('/projects')).status === 200, 10_000, "the far tenant's reads to answer again");
      expectNoCredentials(app.logs.join('\n'));
    }, 60_000);

    test('npm run migrate brings the tenants of every server up, tallied per server; a stopped server fails only its own tenants (status 1)', async () => {
      const env = { ...migrateEnv(db.url), SERVICE_TENANT_DB_URLS: servers.map((s) => s.url).join(',') };
      const at = servers.map((s): SchemaServer => ({ key: s.key, query: (sql) => query(s, sql) }));
      const migratedTo = async (ids: string[]) =>
        (await db.query<{ migrated_to: string | null }>('SELECT migrated_to FROM control.tenants WHERE id = ANY($1)', [ids])).map((r) => r.migrated_to);
      const hasGoals = async (server: Server, id: string) => (await query<{ ok: boolean }>(server, 'SELECT to_regclass($1) IS NOT NULL AS ok', [`${schemaOf(id)}.goals`]))[0].ok;

      const near = await createBareTenants(db, 3, { on: at[0] });
      const far = await createBareTenants(db, 2, { on: at[1] });
      const run = await runMigrate(env, ['--concurrency', '2']);
      expect(run.code).toBe(0);
      expect(run.summary.tenants).toMatchObject({ behind: 5, migrated: 5, failed: 0 });
      expect(run.summary.servers).toHaveLength(2);
      expect(run.summary.servers).toEqual(
        expect.arrayContaining([
          { server: servers[0].key, behind: 3, migrated: 3, failed: 0 },
          { server: servers[1].key, behind: 2, migrated: 2, failed: 0 },
        ]),
      );
      expect(await migratedTo([...near, ...far])).toEqual(Array(5).fill(LATEST));
      for (const id of near) expect(await hasGoals(servers[0], id)).toBe(true);
      for (const id of far) expect(await hasGoals(servers[1], id)).toBe(true);
      expectNoCredentials(run.stdout + run.stderr);

      const nearAgain = await createBareTenants(db, 2, { on: at[0] });
      const farAgain = await createBareTenants(db, 2, { on: at[1] });
      await servers[1].cluster.stop('fast');
      let stopped: Awaited<ReturnType<typeof runMigrate>>;
      try {
        stopped = await runMigrate(env, ['--concurrency', '2']);
      } finally {
        await servers[1].cluster.start();
      }
      expect(stopped.code).toBe(1);
      expect(stopped.summary).toMatchObject({ migrated: false, tenants: { behind: 4, migrated: 2, failed: 2 } });
      expect(stopped.summary.servers).toEqual(
        expect.arrayContaining([
          { server: servers[0].key, behind: 2, migrated: 2, failed: 0 },
          { server: servers[1].key, behind: 2, migrated: 0, failed: 2 },
        ]),
      );
      expect(stopped.summary.failed.map((f: { tenant_id: string }) => f.tenant_id).sort()).toEqual([...farAgain].sort());
      expect(await migratedTo(nearAgain)).toEqual([LATEST, LATEST]);
      expect(await migratedTo(farAgain)).toEqual([null, null]);
      for (const id of farAgain) expect(await hasGoals(servers[1], id)).toBe(false);
      expectNoCredentials(stopped.stdout + stopped.stderr);

      const again = await runMigrate(env);
      expect(again.code).toBe(0);
      expect(again.summary.servers).toEqual([{ server: servers[1].key, behind: 2, migrated: 2, failed: 0 }]);
      for (const id of farAgain) expect(await hasGoals(servers[1], id)).toBe(true);
    }, 90_000);

    test('a tenant whose server the configuration no longer names answers 503 with a detail naming no host; the others are served', async () => {
      const lost = on(1)[0];
      const kept = on(0)[0];
      const narrower = await startApp(hostedEnv(db.url, { SERVICE_TENANT_DB_URLS: servers[0].url, SERVICE_SWEEP_INTERVAL_SECONDS: '0' }));
      try {
        const refused = await new Http(narrower.url, lost.token).get('/projects');
        expect(refused.status).toBe(503);
        expect(refused.body).toEqual({
          detail: "this workspace's database server is not in this instance's configuration; the operator must add it back",
          code: 'DATABASE_NOT_CONFIGURED',
          retryable: false,
        });
        expect(refused.text).not.toContain(servers[1].key);
        expect(refused.text).not.toContain(String(servers[1].cluster.port));
        expectNoCredentials(refused.text);

        const client = await connectMcp(narrower.url, lost.token);
        try {
          const listed = await callTool(client, 'list_projects');
          expect(listed).toMatchObject({ isError: true, text: refused.body.detail });
        } finally {
          await client.close();
        }

        expect((await new Http(narrower.url, kept.token).get(`/projects/${projectOf.get(kept.tenant_id)}`)).status).toBe(200);
        // The operator's log names the server that is missing, without its credentials.
        const warning = narrower.logs.map((l) => JSON.parse(l)).find((l) => l.code === 'DATABASE_NOT_CONFIGURED');
        expect(warning).toMatchObject({ level: 'warn', msg: 'requests answered 503: a tenant server is missing from SERVICE_TENANT_DB_URLS' });
        expect(warning.reason).toContain(servers[1].key);
        expectNoCredentials(narrower.logs.join('\n'));
        // Only the named server takes new tenants, and the deep probe shows only it.
        const fresh = await tenantClient(narrower, 'Placed while one server is unnamed');
        expect((await placements(db)).get(servers[0].key)).toContain(fresh.tenant_id);
        expect(Object.keys((await new Http(narrower.url).get('/health/deep')).body.components).sort()).toEqual(['database', 'tenant_server_1']);
      } finally {
        await narrower.close();
      }
    });
  });

  describe("three servers named, the control plane's database among them", () => {
    let db: TestDatabase;
    let app: TestApp;
    let servers: Server[];

    beforeAll(async () => {
      await Promise.all(clusters.map((c) => c.query('CREATE DATABASE placement_b')));
      servers = clusters.map((c) => serverOn(c, 'placement_b'));
      db = await TestDatabase.create();
      app = await startApp(
        hostedEnv(db.url, {
          SERVICE_TENANT_DB_URLS: [db.url, ...servers.map((s) => s.url)].join(','),
          SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
          SERVICE_SWEEP_INTERVAL_SECONDS: '0',
        }),
      );
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await db?.drop();
    });

    test("eight tenants made at once, two on each of the four (the control plane's database is recorded as null); admin stats count over all of them", async () => {
      const tenants = await Promise.all(Array.from({ length: 8 }, (_, i) => tenantClient(app, `Spread ${i}`)));
      const by = await placements(db);
      expect(new Map([...by].map(([k, ids]) => [k, ids.length]))).toEqual(new Map([[null, 2], ...servers.map((s): [string, number] => [s.key, 2])]));
      expect(await schemasOn(db)).toEqual(by.get(null)!.map(schemaOf).sort());
      for (const s of servers) expect(await schemasOn(s)).toEqual(by.get(s.key)!.map(schemaOf).sort());

      await Promise.all(
        tenants.map(async (tenant) => {
          const project = await createProject(tenant.http, `Spread data ${tenant.tenant_id}`);
          expect((await tenant.http.post('/sessions/register', { project_id: project })).status).toBe(201);
          const key = [...by].find(([, ids]) => ids.includes(tenant.tenant_id))![0];
          for (const where of [db, ...servers]) {
            const home = where instanceof TestDatabase ? key === null : where.key === key;
            expect(await schemasHolding(where, project)).toEqual(home ? [schemaOf(tenant.tenant_id)] : []);
          }
        }),
      );

      const stats = (await (await adminClient(app)).get('/admin/stats')).body;
      expect(stats).toMatchObject({ workspaces: 8, active_sessions: 8, not_counted: 0 });

      const deep = await new Http(app.url).get('/health/deep');
      expect(deep.status).toBe(200);
      // Named by place in SERVICE_TENANT_DB_URLS: the first entry is the control plane's, under `database`.
      expect(Object.keys(deep.body.components).sort()).toEqual(['database', 'tenant_server_2', 'tenant_server_3', 'tenant_server_4']);
    }, 60_000);
  });
});
