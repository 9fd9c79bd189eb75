import { Client } from 'pg';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { sleepingBackends, TestDatabase } from './support/pg-database';
import { timed } from './support/stats';
import { describePostgres } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/**
 * Every request has a deadline (SERVICE_REQUEST_TIMEOUT_S): its database work is
 * bounded to end by then, whatever the statement timeout, and a long-poll adds its
 * wait to it instead of being cut.
 */
describePostgres('request deadlines', () => {
  const POOL = 4;
  let db: TestDatabase;
  let testApp: TestApp;
  let a: TenantClient;
  let admin: Client;
  let schema: string;

  beforeAll(async () => {
    db = await TestDatabase.create();
    // The statement timeout is longer than the deadline: the deadline must win.
    testApp = await startApp(
      hostedEnv(db.url, { SERVICE_REQUEST_TIMEOUT_S: '2', SERVICE_DB_STATEMENT_TIMEOUT_S: '30', SERVICE_DB_POOL_SIZE: String(POOL), SERVICE_DB_TENANT_SHARE: '50' }),
    );
    a = await tenantClient(testApp, 'Tenant A');
    schema = (await testApp.app.get(TenantResolver).resolve(`Bearer ${a.token}`)).schema as string;
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await testApp?.close();
    await db?.drop();
  });

  test('a read and a write held up by a lock answer 503 with Retry-After by the deadline, and nothing is written', async () => {
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE "${schema}".projects IN ACCESS EXCLUSIVE MODE`);
    try {
      const [read, write] = await Promise.all([timed(() => a.http.get('/projects')), timed(() => a.http.post('/projects', { name: 'Too late' }))]);
      for (const { result, ms } of [read, write]) {
        expect(result.status).toBe(503);
        expect(['DATABASE_UNAVAILABLE', 'DEADLINE_EXCEEDED']).toContain(result.body.code);
        expect(result.body).toMatchObject({ retryable: true });
        expect(result.headers.get('retry-after')).toBe('2');
        expect(ms).toBeGreaterThan(900);
        expect(ms).toBeLessThan(2600);
      }
    } finally {
      await admin.query('ROLLBACK');
    }
    // The write was cut inside its transaction: it is not there, and the tenant is served again.
    const after = await a.http.get('/projects');
    expect(after.status).toBe(200);
    expect(after.body.map((p: { name: string }) => p.name)).not.toContain('Too late');
    const { rows } = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".projects WHERE name = 'Too late'`);
    expect(rows[0].n).toBe(0);
  });

  test("a write that waits behind its workspace's stuck work answers 503 DATABASE_BUSY by the deadline, writes nothing, and is no outage", async () => {
    // The workspace's whole share of the pool (half of it) held by statements far longer than the deadline.
    const logged = testApp.logs.length;
    const stuck = Array.from({ length: POOL / 2 }, () => inTenantDb(testApp, a.token, (m) => m.query('SELECT pg_sleep(3)')));
    await waitUntil(async () => (await sleepingBackends(admin)) === POOL / 2, 5000, "the workspace's share to be taken");
    try {
      const { result, ms } = await timed(() => a.http.post('/projects', { name: 'Waited in line' }));
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ detail: 'the database is busy with other work right now; try again in a few seconds', code: 'DATABASE_BUSY', retryable: true });
      expect(result.headers.get('retry-after')).toBe('2');
      expect(ms).toBeGreaterThan(1500); // it waited for its turn until close to its 2 s deadline
      expect(ms).toBeLessThan(2900); // and did not outlast the stuck statements
    } finally {
      await Promise.all(stuck);
    }
    expect((await a.http.get('/projects')).body.map((p: { name: string }) => p.name)).not.toContain('Waited in line');
    // A busy workspace is not a database that went away: no outage was logged.
    expect(testApp.logs.slice(logged).filter((line) => line.includes('database unavailable'))).toEqual([]);
  });

  test('a long-poll waits longer than the deadline and answers normally', async () => {
    const project = (await a.http.post('/projects', { name: 'Waiting room' })).body;
    const { result, ms } = await timed(() => a.http.post(`/projects/${project.id}/messages/receive`, { agent: 'patient', wait_seconds: 3 }));
    expect(result.status).toBe(200);
    expect(result.body.messages).toEqual([]);
    expect(ms).toBeGreaterThan(2900);
  });
});
