import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { INTERNAL_HOST_SPELLINGS, startTcpTrap, TcpTrap } from './support/tcp-trap';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';

const PASSWORD = 'byodb-Secret-9f3k';

describePostgres('bring your own database (POST /workspace/connect-db)', () => {
  let shared: TestDatabase;
  let own: TestDatabase;
  let testApp: TestApp;
  let ownUrl: string;

  beforeAll(async () => {
    shared = await TestDatabase.create();
    own = await TestDatabase.create('baton_byodb');
    // Local Postgres trusts loopback, so any password is accepted: enough to prove it is never shown.
    const url = new URL(own.url);
    url.password = PASSWORD;
    ownUrl = url.toString();
    // The test's Postgres is on loopback, which hosted Baton refuses unless the operator allows it.
    testApp = await startApp(hostedEnv(shared.url, { SERVICE_BYODB_ALLOWED_HOSTS: '127.0.0.1' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await own?.drop();
    await shared?.drop();
  });

  test("connects, migrates the tenant schema there, and sends the tenant's data there from then on", async () => {
    const t = await tenantClient(testApp, 'Own DB');
    const other = await tenantClient(testApp, 'Shared DB');
    const http = t.http;
    const res = await http.post('/workspace/connect-db', { url: ownUrl });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ connected: true, database: 'postgres', schema: 'baton' });
    expect(res.text).not.toContain(PASSWORD);

    const created = await http.post('/projects', { name: 'Lives in my database' });
    expect(created.status).toBe(201);
    const inOwn = await own.query<{ id: string; name: string }>('SELECT id, name FROM baton.projects');
    expect(inOwn).toEqual([{ id: created.body.id, name: 'Lives in my database' }]);
    const [{ schema_name }] = await shared.query<{ schema_name: string }>('SELECT schema_name FROM control.tenants WHERE id = $1', [t.tenant_id]);
    expect(await shared.query(`SELECT * FROM "${schema_name}".projects`)).toEqual([]);
    expect((await http.get('/projects')).body.map((p: { id: string }) => p.id)).toEqual([created.body.id]);

    // The other tenant still lives in the shared cluster and sees nothing of it.
    expect((await other.http.get(`/projects/${created.body.id}`)).status).toBe(404);

    // The URL is stored sealed: neither it nor its password appears in the control plane, the logs or any response.
    const dump = JSON.stringify(await shared.query('SELECT * FROM control.tenants'));
    expect(dump).not.toContain(PASSWORD);
    expect(dump).not.toContain(own.name);
    expect(testApp.logs.join('\n')).not.toContain(PASSWORD);
    expect((await http.get('/config')).text).not.toContain(PASSWORD);
  });

  test('refuses while the workspace still has projects in the shared database, changing nothing', async () => {
    const t = await tenantClient(testApp, 'Has data');
    const http = t.http;
    const p = (await http.post('/projects', { name: 'Already here' })).body;
    const res = await http.post('/workspace/connect-db', { url: ownUrl });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('WORKSPACE_NOT_EMPTY');
    expect((await http.get(`/projects/${p.id}`)).status).toBe(200);
    const [{ db_url_sealed }] = await shared.query<{ db_url_sealed: string | null }>('SELECT db_url_sealed FROM control.tenants WHERE id = $1', [t.tenant_id]);
    expect(db_url_sealed).toBeNull();
  });

  test('an unreachable or malformed database URL answers 400 without echoing it', async () => {
    const t = await tenantClient(testApp, 'Bad URLs');
    const http = t.http;
    const closedPort = `postgres://postgres:${PASSWORD}@127.0.0.1:1/nothing`;
    const unreachable = await http.post('/workspace/connect-db', { url: closedPort });
    expect(unreachable.status).toBe(400);
    expect(unreachable.body.code).toBe('DATABASE_REFUSED');
    expect(unreachable.text).not.toContain(PASSWORD);
    const missingDb = new URL(own.url);
    missingDb.pathname = '/baton_no_such_database';
    missingDb.password = PASSWORD;
    const noDb = await http.post('/workspace/connect-db', { url: missingDb.toString() });
    expect(noDb.status).toBe(400);
    expect(noDb.text).not.toContain(PASSWORD);
    for (const url of ['mysql://root:pw@host/db', 'not a url', '', 42, null]) {
      const bad = await http.post('/workspace/connect-db', { url });
      expect(bad.status).toBe(400);
      if (typeof url === 'string' && url) expect(bad.text).not.toContain(url);
    }
    expect((await http.post('/workspace/connect-db', {})).status).toBe(400);
    const [{ db_url_sealed }] = await shared.query<{ db_url_sealed: string | null }>('SELECT db_url_sealed FROM control.tenants WHERE id = $1', [t.tenant_id]);
    expect(db_url_sealed).toBeNull();
    expect((await http.post('/projects', { name: 'still works' })).status).toBe(201);
  });
});

describePostgres('connect-db refuses internal, claimed and control-plane databases alike', () => {
  let shared: TestDatabase;
  let own: TestDatabase;
  let strict: TestApp;
  let allowing: TestApp;
  let trap: TcpTrap;

  beforeAll(async () => {
    shared = await TestDatabase.create();
    own = await TestDatabase.create('baton_byodb');
    trap = await startTcpTrap();
    strict = await startApp(hostedEnv(shared.url));
    allowing = await startApp(hostedEnv(shared.url, { SERVICE_BYODB_ALLOWED_HOSTS: '127.0.0.1' }));
  });
  afterAll(async () => {
    await strict?.close();
    await allowing?.close();
    await trap?.close();
    await own?.drop();
    await shared?.drop();
  });

  test('no spelling of an internal address reaches it: the listener sees zero connections', async () => {
    const t = await provisionTenant(strict, 'Scanner');
    const http = new Http(strict.url, t.token);
    const hosts = INTERNAL_HOST_SPELLINGS;
    const answers = await Promise.all(hosts.map((host) => http.post('/workspace/connect-db', { url: `postgres://u:p@${host}:${trap.port}/db` })));
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(answers[0].body);
    }
    expect(answers[0].body.code).toBe('DATABASE_REFUSED');
    expect(trap.connections()).toBe(0);
    // A certificate path or a socket directory in the URL is refused before anything is opened.
    const params = await http.post('/workspace/connect-db', { url: `postgres://u:p@8.8.8.8/db?sslrootcert=/etc/passwd` });
    expect(params.body).toEqual(answers[0].body);
  });

  test('closed, open-and-silent and Postgres-with-bad-credentials ports answer the same refusal', async () => {
    const t = await provisionTenant(allowing, 'Prober');
    const http = new Http(allowing.url, t.token);
    const closed = await startTcpTrap();
    const closedPort = closed.port;
    await closed.close();
    const pg = new URL(own.url);
    const before = trap.connections();
    const [refusedClosed, refusedSilent, refusedAuth, refusedHost] = await Promise.all([
      http.post('/workspace/connect-db', { url: `postgres://u:p@127.0.0.1:${closedPort}/db` }),
      http.post('/workspace/connect-db', { url: `postgres://u:p@127.0.0.1:${trap.port}/db` }),
      http.post('/workspace/connect-db', { url: `postgres://no_such_role_x:p@127.0.0.1:${pg.port || 5432}/${own.name}` }),
      http.post('/workspace/connect-db', { url: `postgres://u:p@10.0.0.1:${trap.port}/db` }),
    ]);
    expect(trap.connections()).toBe(before + 1);
    for (const res of [refusedClosed, refusedSilent, refusedAuth, refusedHost]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusedClosed.body);
    }
    expect(refusedClosed.body).toEqual({ code: 'DATABASE_REFUSED', detail: expect.any(String) });
  });

  test('a database another workspace connected, and the control-plane database, are refused', async () => {
    const first = await provisionTenant(allowing, 'First');
    const second = await provisionTenant(allowing, 'Second');
    const ok = await new Http(allowing.url, first.token).post('/workspace/connect-db', { url: own.url });
    expect(ok.status).toBe(200);
    expect(await own.query('SELECT tenant_id FROM baton.baton_owner')).toEqual([{ tenant_id: first.tenant_id }]);
    const taken = await new Http(allowing.url, second.token).post('/workspace/connect-db', { url: own.url });
    expect(taken.status).toBe(400);
    expect(taken.body.code).toBe('DATABASE_REFUSED');
    // The first workspace connecting again is fine: the mark is its own.
    expect((await new Http(allowing.url, first.token).post('/workspace/connect-db', { url: own.url })).status).toBe(200);
    // An instance whose operator does not allow loopback refuses to open that tenant's pool at all.
    const refusedPool = await new Http(strict.url, first.token).get('/projects');
    expect(refusedPool.status).toBe(503);
    expect(refusedPool.body).toMatchObject({ code: 'DATABASE_REFUSED', retryable: false, detail: expect.stringContaining('connect it again with POST /workspace/connect-db') });
    expect(refusedPool.text).not.toContain(own.name);
    expect((await new Http(allowing.url, first.token).get('/projects')).status).toBe(200);

    const control = await new Http(allowing.url, second.token).post('/workspace/connect-db', { url: shared.url });
    expect(control.status).toBe(400);
    expect(control.body).toEqual(taken.body);
    expect(await shared.query("SELECT to_regclass('baton.baton_owner') AS t")).toEqual([{ t: null }]);
    const [{ db_url_sealed }] = await shared.query<{ db_url_sealed: string | null }>('SELECT db_url_sealed FROM control.tenants WHERE id = $1', [second.tenant_id]);
    expect(db_url_sealed).toBeNull();
  });
});

describe('connect-db on a self-hosted instance', () => {
  test('answers 400: a self-hosted instance chooses its database with SERVICE_DB_URL', async () => {
    const testApp = await startApp();
    try {
      const res = await new Http(testApp.url).post('/workspace/connect-db', { url: 'postgres://u:p@127.0.0.1/db' });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('NOT_HOSTED');
    } finally {
      await testApp.close();
    }
  });
});
