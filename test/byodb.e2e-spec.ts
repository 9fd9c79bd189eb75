import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

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
    testApp = await startApp(hostedEnv(shared.url));
  });
  afterAll(async () => {
    await testApp?.close();
    await own?.drop();
    await shared?.drop();
  });

  test('connects, migrates the tenant schema there, and sends the tenant\'s data there from then on', async () => {
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
    expect(unreachable.body.code).toBe('DATABASE_UNREACHABLE');
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
