import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

/**
 * A pooled connection caches the table metadata of every tenant schema it reads and never gives
 * it back (docs/capacity.md): SERVICE_DB_CONNECTION_LIFETIME_S replaces connections once that old.
 */
describePostgres('pooled connections are replaced after SERVICE_DB_CONNECTION_LIFETIME_S', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let tenant: TenantClient;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_DB_CONNECTION_LIFETIME_S: '1', SERVICE_SWEEP_INTERVAL_SECONDS: '0' }));
    tenant = await tenantClient(testApp, 'Reader');
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  /** The backends Baton holds on the test database now. */
  const backends = async () =>
    new Set((await db.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'baton'")).map((r) => r.pid));

  test('the connections that served reads are gone a lifetime later, and reads go on over new ones', async () => {
    const project = (await tenant.http.post('/projects', { name: 'Kept' })).body.id as string;
    for (let i = 0; i < 20; i++) expect((await tenant.http.get(`/projects/${project}`)).status).toBe(200);
    const before = await backends();
    expect(before.size).toBeGreaterThan(0);
    await sleep(2500);
    for (let i = 0; i < 20; i++) expect((await tenant.http.get(`/projects/${project}`)).status).toBe(200);
    const after = await backends();
    expect([...after].filter((pid) => before.has(pid))).toEqual([]);
  });
});
