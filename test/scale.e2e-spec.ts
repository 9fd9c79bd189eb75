import { Client } from 'pg';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

const TENANTS = Number(process.env.BATON_SCALE_TENANTS ?? 1000);
const POOL_SIZE = 10;

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T, R>(items: T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i], i);
      }
    }),
  );
  return results;
}

describePostgres(`${TENANTS} hosted tenants on one shared cluster`, () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let tenants: { tenant_id: string; token: string }[];

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_DB_POOL_SIZE: String(POOL_SIZE), SERVICE_TOKEN_CACHE_SECONDS: '60' }));
    tenants = await pool(
      Array.from({ length: TENANTS }, (_, i) => i),
      4,
      (i) => provisionTenant(testApp, `scale-${i}`),
    );
    // Provisioning is a schema, a role and every tenant migration for each of the 1,000 tenants:
    // 2 to 5 minutes on a 2-core machine, most of it Postgres syncing catalog files, so the set-up
    // gets room beyond that; the assertions below are what the suite is about.
  }, 600_000);
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  }, 120_000);

  test(`connections to Postgres never exceed the pool size (${POOL_SIZE}), and no request reads another tenant's rows`, async () => {
    const monitor = new Client({ connectionString: db.url, application_name: 'baton-test-monitor' });
    await monitor.connect();
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await monitor.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'baton'", [db.name]);
        peak = Math.max(peak, rows[0].n);
        await sleep(20);
      }
    })();
    try {
      const created = await pool(tenants, 50, async (t, i) => {
        const res = await new Http(testApp.url, t.token).post('/projects', { name: `project of tenant ${i}` });
        expect(res.status).toBe(201);
        return res.body.id as string;
      });
      // Requests spread across tenants in a shuffled order, each must see exactly its own project.
      const order = tenants.map((_, i) => i).sort((x, y) => ((x * 7919) % TENANTS) - ((y * 7919) % TENANTS));
      const mismatches: number[] = [];
      await pool(order, 50, async (i) => {
        const res = await new Http(testApp.url, tenants[i].token).get('/projects');
        const ids = (res.body as { id: string; name: string }[]).map((p) => `${p.id}:${p.name}`);
        if (ids.length !== 1 || ids[0] !== `${created[i]}:project of tenant ${i}`) mismatches.push(i);
        const other = created[(i + 1) % TENANTS];
        const cross = await new Http(testApp.url, tenants[i].token).get(`/projects/${other}`);
        if (cross.status !== 404) mismatches.push(i);
      });
      expect(mismatches).toEqual([]);
    } finally {
      sampling = false;
      await sampler;
      await monitor.end();
    }
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(POOL_SIZE);
  }, 300_000);
});
