import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import WebSocket from 'ws';
import { runWithTenant, TenantDb } from '../libs/tenancy';
import { SHARED_DATA_SOURCE } from '../src/database/database.module';
import { hashApiToken } from '../src/modules/tenants/api-token.util';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { TenantProvisioning } from '../src/modules/tenants/tenant-provisioning.service';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

describePostgres('hosted tenancy on Postgres', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let a: TenantClient;
  let b: TenantClient;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
    a = await tenantClient(testApp, 'Tenant A');
    b = await tenantClient(testApp, 'Tenant B');
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test("tenant A's token on tenant B's project answers 404, and neither list shows the other's projects (REST)", async () => {
    const pa = (await a.http.post('/projects', { name: 'Shared Name' })).body;
    const pb = (await b.http.post('/projects', { name: 'Shared Name' })).body;
    expect(pb.id).toBeDefined(); // the same name in two tenants is no conflict
    expect((await a.http.get(`/projects/${pb.id}`)).status).toBe(404);
    expect((await b.http.get(`/projects/${pa.id}`)).status).toBe(404);
    expect((await a.http.post(`/projects/${pb.id}/rename`, { name: 'Hijacked' })).status).toBe(404);
    expect((await a.http.delete(`/projects/${pb.id}`)).status).toBe(404);
    const batch = await a.http.delete('/projects', { ids: [pb.id] });
    expect(batch.body).toEqual({ deleted: [], not_found: [pb.id] });
    expect((await b.http.get(`/projects/${pb.id}`)).body.name).toBe('Shared Name');
    const listA = (await a.http.get('/projects')).body.map((p: { id: string }) => p.id);
    const listB = (await b.http.get('/projects')).body.map((p: { id: string }) => p.id);
    expect(listA).toContain(pa.id);
    expect(listA).not.toContain(pb.id);
    expect(listB).toContain(pb.id);
    expect(listB).not.toContain(pa.id);
  });

  test('writeStatement commits one statement in its tenant, and a failing one writes nothing and leaves the pool clean', async () => {
    const db = testApp.app.get(TenantDb);
    const tenant = await testApp.app.get(TenantResolver).resolve(`Bearer ${a.token}`);
    const id = randomUUID();
    const now = new Date().toISOString();
    await runWithTenant(tenant, () =>
      db.writeStatement({
        text: "INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES ($1, 'Written in one trip', 'written in one trip', $2, $2)",
        values: [id, now],
      }),
    );
    expect((await a.http.get(`/projects/${id}`)).body.name).toBe('Written in one trip');
    expect((await b.http.get(`/projects/${id}`)).status).toBe(404);
    const failing = runWithTenant(tenant, () =>
      db.writeStatement({
        text: "INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES ($1, 'Twice', 'written in one trip', $2, $2)",
        values: [randomUUID(), now],
      }),
    );
    await expect(failing).rejects.toThrow();
    // Every pooled connection is usable again: no transaction was left open on one.
    const reads = await Promise.all(Array.from({ length: 12 }, () => a.http.post('/projects', { name: `After ${randomUUID()}` })));
    expect(reads.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect((await a.http.get('/projects')).body.filter((p: { name: string }) => p.name === 'Twice')).toEqual([]);
  });

  test('a prepared writeStatement writes in the schema of the tenant it runs for, when pooled connections serve two tenants in turn', async () => {
    const tenantDb = testApp.app.get(TenantDb);
    const resolver = testApp.app.get(TenantResolver);
    const [ta, tb] = [await resolver.resolve(`Bearer ${a.token}`), await resolver.resolve(`Bearer ${b.token}`)];
    const now = new Date().toISOString();
    const written: Record<'a' | 'b', string[]> = { a: [], b: [] };
    // One after another, so the pool hands the same idle connections to both tenants: the statement
    // prepared there for one tenant's search path runs again for the other's.
    for (let i = 0; i < 12; i++) {
      const [key, tenant] = i % 2 === 0 ? (['a', ta] as const) : (['b', tb] as const);
      const id = randomUUID();
      written[key].push(id);
      const text = 'INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES ($1, $2, lower($2), $3, $3)';
      await runWithTenant(tenant, () => tenantDb.writeStatement({ name: 'test_prepared_project_insert', text, values: [id, `Prepared ${id}`, now] }));
    }
    const names = async (client: TenantClient) => ((await client.http.get('/projects')).body as { id: string }[]).map((p) => p.id);
    const [listA, listB] = [await names(a), await names(b)];
    expect(listA).toEqual(expect.arrayContaining(written.a));
    expect(listB).toEqual(expect.arrayContaining(written.b));
    expect(listA.filter((id) => written.b.includes(id))).toEqual([]);
    expect(listB.filter((id) => written.a.includes(id))).toEqual([]);
  });

  test("tenant A's MCP session cannot see or touch tenant B's projects", async () => {
    const pb = (await b.http.post('/projects', { name: 'B Only' })).body;
    const client = await connectMcp(testApp.url, a.token);
    try {
      const got = await callTool(client, 'get_project', { project_id: pb.id });
      expect(got.isError).toBe(true);
      expect(got.text).toBe((await a.http.get(`/projects/${pb.id}`)).body.detail);
      const del = await callTool(client, 'delete_project', { project_id: pb.id });
      expect(del.isError).toBe(true);
      const listed = await callTool(client, 'list_projects');
      expect(listed.value.map((p: { id: string }) => p.id)).not.toContain(pb.id);
      const created = await callTool(client, 'create_project', { name: 'A via MCP' });
      expect((await b.http.get(`/projects/${created.value.id}`)).status).toBe(404);
    } finally {
      await client.close();
    }
    expect((await b.http.get(`/projects/${pb.id}`)).status).toBe(200);
  });

  test('a missing, malformed, unknown or revoked token answers 401 {detail}', async () => {
    const anon = new Http(testApp.url);
    const missing = await anon.get('/projects');
    expect(missing.status).toBe(401);
    expect(missing.body.detail).toMatch(/token/);
    expect((await anon.get('/projects', { authorization: 'Basic abc' })).status).toBe(401);
    expect((await anon.withToken('not_a_baton_token').get('/projects')).status).toBe(401);
    expect((await anon.withToken('sk_service_' + 'x'.repeat(43)).get('/projects')).status).toBe(401);

    const extra = await testApp.app.get(ApiTokens).createToken(a.tenant_id, 'to revoke');
    const client = new Http(testApp.url, extra);
    expect((await client.get('/projects')).status).toBe(200);
    await testApp.app.get(ApiTokens).revokeToken(extra);
    const revoked = await client.get('/projects');
    expect(revoked.status).toBe(401);
    expect(revoked.body.detail).toBe('invalid or revoked API token');
    expect((await new Http(testApp.url, a.token).get('/projects')).status).toBe(200);
  });

  test('MCP needs a valid token in hosted mode', async () => {
    await expect(connectMcp(testApp.url)).rejects.toThrow();
    const res = await new Http(testApp.url).post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(401);
    expect(res.body.detail).toBeDefined();
    // The token is checked first; a valid one still meets the Origin check.
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { accept: 'application/json, text/event-stream', origin: 'https://attacker.test' };
    expect((await new Http(testApp.url, 'sk_service_not-a-real-token').post('/mcp', list, headers)).status).toBe(401);
    const foreign = await a.http.post('/mcp', list, headers);
    expect(foreign.status).toBe(403);
    expect(foreign.body.detail).toMatch(/Origin https:\/\/attacker.test is not allowed/);
  });

  test('tokens are stored only as hashes', async () => {
    const rows = await db.query<{ token_hash: string; token_prefix: string }>('SELECT token_hash, token_prefix FROM control.api_tokens');
    const dump = JSON.stringify(await db.query('SELECT * FROM control.api_tokens'));
    expect(dump).not.toContain(a.token);
    expect(dump).not.toContain(b.token);
    expect(rows.map((r) => r.token_hash)).toContain(hashApiToken(a.token));
    expect(rows.every((r) => r.token_prefix.length <= 15)).toBe(true);
  });

  test("a dashboard WebSocket receives its own tenant's events only; one without a token is closed", async () => {
    const pa = (await a.http.post('/projects', { name: 'WS Target' })).body;
    const socketOf = async (token?: string) => {
      const ws = new WebSocket(testApp.url.replace('http', 'ws') + '/ws', { headers: token ? { authorization: `Bearer ${token}` } : {} });
      const frames: { event: string; data: any }[] = [];
      ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
      return { ws, frames };
    };
    const sa = await socketOf(a.token);
    const sb = await socketOf(b.token);
    const anon = await socketOf();
    const closed = new Promise<number>((resolve) => anon.ws.on('close', (code) => resolve(code)));
    expect(await closed).toBe(4401);
    await waitUntil(() => sa.frames.some((f) => f.event === 'connected') && sb.frames.some((f) => f.event === 'connected'), 3000, 'both sockets connected');
    await a.http.post(`/projects/${pa.id}/rename`, { name: 'WS Target 2' });
    await waitUntil(() => sa.frames.some((f) => f.event === 'project_renamed'), 3000, 'project_renamed on tenant A');
    await sleep(100);
    expect(sb.frames.filter((f) => f.event === 'project_renamed')).toEqual([]);
    sa.ws.close();
    sb.ws.close();
  });

  test.each(['transaction', 'read'] as const)("%s work running as tenant A fails loudly on tenant B's schema and on the control plane", async (kind) => {
    const tenantDb = testApp.app.get(TenantDb);
    const run = <T>(work: (m: EntityManager) => Promise<T>) => tenantDb[kind](work);
    const resolver = testApp.app.get(TenantResolver);
    const ctxA = await resolver.resolve(`Bearer ${a.token}`);
    const ctxB = await resolver.resolve(`Bearer ${b.token}`);
    await runWithTenant(ctxA, async () => {
      await expect(run((m) => m.query(`SELECT * FROM "${ctxB.schema}".projects`))).rejects.toThrow(/permission denied/);
      await expect(run((m) => m.query('SELECT * FROM control.api_tokens'))).rejects.toThrow(/permission denied/);
      await expect(run((m) => m.query('SELECT * FROM control.tenants WHERE id = $1', [ctxA.tenantId]))).rejects.toThrow(/permission denied/);
      if (kind === 'read') {
        // A refused statement ends nothing: the next one runs, scoped again.
        const after = await run((m) => m.query('SELECT * FROM control.tenants').catch(() => m.query('SELECT count(*)::int AS n, current_user AS who FROM projects')));
        expect(after).toEqual([{ n: expect.any(Number), who: ctxA.role }]);
      }
    });
    // A wrong search_path alone cannot leak either: Postgres skips a schema the role may not use,
    // so the query finds no table instead of B's rows.
    const forged = { ...ctxA, schema: ctxB.schema };
    await runWithTenant(forged, async () => {
      await expect(run((m) => m.query('SELECT * FROM projects'))).rejects.toThrow(/relation "projects" does not exist/);
    });
  });

  test('read work cannot write or open a transaction; what a transaction writes, a read sees', async () => {
    const tenantDb = testApp.app.get(TenantDb);
    const ctxA = await testApp.app.get(TenantResolver).resolve(`Bearer ${a.token}`);
    const id = randomUUID();
    await runWithTenant(ctxA, async () => {
      await expect(tenantDb.read((m) => m.query(`INSERT INTO projects (id, name, name_key) VALUES ($1, 'ro', 'ro')`, [id]))).rejects.toThrow(/read-only transaction/);
      await expect(tenantDb.read((m) => m.transaction(async (inner) => inner.query('SELECT 1')))).rejects.toThrow(/cannot open or end a transaction/);
      await tenantDb.transaction((m) => m.query(`INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES ($1, $2, $3, now(), now())`, [id, "it's \\ read", 'rw']));
      const rows = await tenantDb.read((m) => m.query('SELECT name FROM projects WHERE id = $1', [id]));
      expect(rows).toEqual([{ name: "it's \\ read" }]);
      // Several statements in one text cannot be prepared; they go as text, scoped and read-only the same way.
      expect(await tenantDb.read((m) => m.query(`SELECT 1 AS a; SELECT name AS b FROM projects WHERE id = '${id}'`))).toEqual([{ b: "it's \\ read" }]);
      await expect(tenantDb.read((m) => m.query(`SELECT 1; DELETE FROM projects WHERE id = '${id}'`))).rejects.toThrow(/read-only transaction/);
      await tenantDb.transaction((m) => m.query('DELETE FROM projects WHERE id = $1', [id]));
    });
  });

  test('reads of two tenants sent in the same turn share connections, and each statement runs as its own tenant', async () => {
    const tenantDb = testApp.app.get(TenantDb);
    const resolver = testApp.app.get(TenantResolver);
    const contexts = [await resolver.resolve(`Bearer ${a.token}`), await resolver.resolve(`Bearer ${b.token}`)];
    const names = await Promise.all(
      contexts.map((ctx, i) =>
        runWithTenant(ctx, () =>
          tenantDb.transaction(async (m) => {
            const name = `same turn ${i} ${randomUUID()}`;
            await m.query(`INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES ($1, $2, $3, now(), now())`, [randomUUID(), name, name]);
            return name;
          }),
        ),
      ),
    );
    // Issued in one synchronous loop: one turn of the event loop, alternating tenants.
    const reads = Array.from({ length: 40 }, (_, i) =>
      runWithTenant(contexts[i % 2], () => tenantDb.read((m) => m.query('SELECT current_user AS who, pg_backend_pid() AS pid, (SELECT array_agg(name) FROM projects) AS names'))),
    );
    const answers = (await Promise.all(reads)).map((rows) => rows[0] as { who: string; pid: number; names: string[] });
    answers.forEach((answer, i) => {
      expect(answer.who).toBe(contexts[i % 2].role);
      expect(answer.names).toContain(names[i % 2]);
      expect(answer.names).not.toContain(names[(i + 1) % 2]);
    });
    // Both tenants' statements travelled on the same connections.
    const pidsOf = (k: number) => new Set(answers.filter((_, i) => i % 2 === k).map((answer) => answer.pid));
    expect([...pidsOf(0)].some((pid) => pidsOf(1).has(pid))).toBe(true);
  });

  test('nothing of a tenant survives on a pooled connection after its transaction or read', async () => {
    const own = await Promise.all([a, b].map(async (t) => (await t.http.post('/projects', { name: `pooled ${randomUUID()}` })).body.id as string));
    const answers = await Promise.all(
      Array.from({ length: 80 }, (_, i) => {
        const [t, ownId, otherId] = i % 2 ? [a, own[0], own[1]] : [b, own[1], own[0]];
        if (i % 4 < 2) return t.http.get('/projects').then((r) => r.status === 200);
        // Reads of its own project and of the other tenant's, interleaved on the same few connections.
        return Promise.all([t.http.get(`/projects/${ownId}`), t.http.get(`/projects/${otherId}`)]).then(
          ([mine, theirs]) => mine.status === 200 && mine.body.id === ownId && theirs.status === 404,
        );
      }),
    );
    expect(answers.every(Boolean)).toBe(true);
    const source = testApp.app.get<DataSource>(SHARED_DATA_SOURCE);
    const runners = await Promise.all(
      Array.from({ length: testApp.config.dbPoolSize }, async () => {
        const runner = source.createQueryRunner();
        await runner.connect();
        return runner;
      }),
    );
    try {
      for (const runner of runners) {
        const [{ search_path, current_user, session_user }] = await runner.query("SELECT current_setting('search_path') AS search_path, current_user, session_user");
        expect(search_path).toBe('"$user", public');
        expect(current_user).toBe(session_user);
      }
    } finally {
      await Promise.all(runners.map((r) => r.release()));
    }
  });

  test('catalogue: the tenant set is in every tenant schema, and no tenant table sits in the control or public schema', async () => {
    const tables = await db.query<{ table_schema: string; table_name: string }>(
      `SELECT table_schema, table_name FROM information_schema.tables
        WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
    );
    const bySchema = new Map<string, string[]>();
    for (const t of tables) bySchema.set(t.table_schema, [...(bySchema.get(t.table_schema) ?? []), t.table_name]);
    const tenantSchemas = (await db.query<{ schema_name: string }>('SELECT schema_name FROM control.tenants')).map((r) => r.schema_name);
    const tenantTables = bySchema.get(tenantSchemas[0]) ?? [];
    expect(tenantTables).toEqual(expect.arrayContaining(['baton_migrations', 'projects']));
    for (const schema of tenantSchemas) expect(bySchema.get(schema)).toEqual(tenantTables);
    const control = bySchema.get('control') ?? [];
    expect(control).toEqual(expect.arrayContaining(['api_tokens', 'baton_migrations', 'tenants', 'accounts', 'memberships', 'web_sessions']));
    expect(control.filter((table) => table !== 'baton_migrations' && tenantTables.includes(table))).toEqual([]);
    expect(bySchema.get('public') ?? []).toEqual([]);
    const known = new Set(['control', 'public', ...tenantSchemas]);
    expect([...bySchema.keys()].filter((s) => !known.has(s))).toEqual([]);
    for (const table of tenantTables.filter((t) => t !== 'baton_migrations')) {
      expect(bySchema.get('control')).not.toContain(table);
    }
    // Each tenant schema is owned by that tenant's role, and by nothing else.
    const owners = await db.query<{ nspname: string; owner: string }>(
      'SELECT n.nspname, r.rolname AS owner FROM pg_namespace n JOIN pg_roles r ON r.oid = n.nspowner WHERE n.nspname = ANY($1)',
      [tenantSchemas],
    );
    const roles = await db.query<{ schema_name: string; role_name: string }>('SELECT schema_name, role_name FROM control.tenants');
    for (const { schema_name, role_name } of roles) expect(owners.find((o) => o.nspname === schema_name)?.owner).toBe(role_name);
  });

  test('deprovisioning a tenant removes its schema, role and tokens', async () => {
    const c = await tenantClient(testApp, 'Tenant C');
    const http = c.http;
    await http.post('/projects', { name: 'C data' });
    const [{ schema_name, role_name }] = await db.query<{ schema_name: string; role_name: string }>('SELECT schema_name, role_name FROM control.tenants WHERE id = $1', [
      c.tenant_id,
    ]);
    await testApp.app.get(TenantProvisioning).deprovision(c.tenant_id);
    expect(await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema_name])).toEqual([]);
    expect(await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role_name])).toEqual([]);
    expect(await db.query('SELECT 1 FROM control.api_tokens WHERE tenant_id = $1', [c.tenant_id])).toEqual([]);
    expect((await http.get('/projects')).status).toBe(401);
    await expect(testApp.app.get(TenantProvisioning).deprovision(randomUUID())).rejects.toThrow(/not found/);
  });
});
