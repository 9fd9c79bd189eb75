import { Client } from 'pg';
import { EntityManager } from 'typeorm';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { sleepingBackends, TestDatabase } from './support/pg-database';
import { timed } from './support/stats';
import { describePostgres } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

/** `work`, and how many of it have settled so far. */
function counted(work: Promise<unknown>[]): { all: Promise<unknown[]>; done: () => number } {
  let settled = 0;
  const all = Promise.all(work.map((w) => w.finally(() => settled++)));
  return { all, done: () => settled };
}

/**
 * Hosted tenants share one pool: one tenant's slow or stuck work holds its share of
 * the connections (SERVICE_DB_TENANT_SHARE) and no more, and no statement of tenant
 * work runs longer than SERVICE_DB_STATEMENT_TIMEOUT_S.
 */
describePostgres('fair share of the shared pool, and the statement timeout', () => {
  const POOL = 10;
  let db: TestDatabase;
  let testApp: TestApp;
  let a: TenantClient;
  let b: TenantClient;
  let admin: Client;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_DB_POOL_SIZE: String(POOL), SERVICE_DB_TENANT_SHARE: '50', SERVICE_DB_STATEMENT_TIMEOUT_S: '1' }));
    a = await tenantClient(testApp, 'Busy tenant');
    b = await tenantClient(testApp, 'Quiet tenant');
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await testApp?.close();
    await db?.drop();
  });

  test('a tenant holding its share of transactions in slow statements leaves the rest of the pool to the others', async () => {
    const slow = counted(Array.from({ length: 3 * POOL }, () => inTenantDb(testApp, a.token, (m) => m.query('SELECT pg_sleep(0.9)'))));
    await waitUntil(async () => (await sleepingBackends(admin)) >= POOL / 2, 5000, 'the busy tenant to fill its share');
    expect(await sleepingBackends(admin)).toBe(POOL / 2); // half the pool, however much work waits
    const write = await b.http.post('/projects', { name: 'Written meanwhile' });
    const read = await b.http.get('/projects');
    expect(write.status).toBe(201);
    expect(read.status).toBe(200);
    // Served beside the busy tenant's first turns, not behind its line: without the share the
    // quiet tenant would wait in the pool's queue behind 20 of them (the first turn holds 5).
    expect(slow.done()).toBeLessThan(POOL);
    await slow.all; // the busy tenant's work all ran, in turns
  });

  test("a request waits for its place in its tenant's line as long as its deadline allows, longer than the pool's connect wait, and is served", async () => {
    // The share held for 6 s by transactions of short statements (each under the 1 s statement timeout).
    const hold = async (m: EntityManager) => {
      for (let i = 0; i < 12; i++) await m.query('SELECT pg_sleep(0.5)');
    };
    const holders = Array.from({ length: POOL / 2 }, () => inTenantDb(testApp, a.token, hold));
    await waitUntil(async () => (await sleepingBackends(admin)) === POOL / 2, 5000, 'the busy tenant to fill its share');
    const write = await timed(() => a.http.post('/projects', { name: 'Served after the line' }));
    await Promise.all(holders);
    expect(write.result.status).toBe(201);
    expect(write.ms).toBeGreaterThan(5000); // longer than work outside a request waits (the pool's 5 s connect timeout)
    expect((await a.http.get('/projects')).body.map((p: { name: string }) => p.name)).toContain('Served after the line');
  });

  test("a tenant's slow reads stay on its share of the read connections", async () => {
    // Sent one by one, so that each looks for the least busy lane (statements of one turn share one).
    const sent: Promise<unknown>[] = [];
    for (let i = 0; i < 10; i++) {
      sent.push(inTenantDb(testApp, a.token, (m) => m.query('SELECT pg_sleep(0.9)'), 'read'));
      await sleep(10);
    }
    const slow = counted(sent);
    await waitUntil(async () => (await sleepingBackends(admin)) >= 2, 5000, 'slow reads');
    expect(await sleepingBackends(admin)).toBe(2); // half of the five read lanes
    const reads = await Promise.all(Array.from({ length: 5 }, () => b.http.get('/projects')));
    for (const read of reads) expect(read.status).toBe(200);
    // Five slow reads queue on each of the busy tenant's two lanes: a read sent behind them would
    // be answered after at least five of them. Answered on lanes of their own, the quiet tenant's
    // reads come back while the first two still sleep.
    expect(slow.done()).toBeLessThan(5);
    await slow.all;
  });

  test('a statement stuck longer than the statement timeout answers 503 DATABASE_UNAVAILABLE with Retry-After, and writes nothing', async () => {
    const tenant = await testApp.app.get(TenantResolver).resolve(`Bearer ${a.token}`);
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE "${tenant.schema}".projects IN ACCESS EXCLUSIVE MODE`);
    try {
      const read = await timed(() => a.http.get('/projects'));
      const write = await timed(() => a.http.post('/projects', { name: 'Never written' }));
      for (const { result, ms } of [read, write]) {
        expect(result.status).toBe(503);
        expect(result.body).toMatchObject({ code: 'DATABASE_UNAVAILABLE', retryable: true });
        expect(result.body.detail).toMatch(/database is unavailable/);
        expect(result.headers.get('retry-after')).toBe('2');
        expect(ms).toBeGreaterThan(800);
        expect(ms).toBeLessThan(4000);
      }
      expect((await b.http.get('/projects')).status).toBe(200); // the other tenant is not held up
    } finally {
      await admin.query('ROLLBACK');
    }
    const names = (await a.http.get('/projects')).body.map((p: { name: string }) => p.name);
    expect(names).not.toContain('Never written');
  });

  test('a slow read is cancelled by the server at the statement timeout', async () => {
    const started = performance.now();
    const error = await inTenantDb(testApp, a.token, (m) => m.query('SELECT pg_sleep(5)'), 'read').catch((e: unknown) => e);
    expect((error as { driverError?: { code?: string } }).driverError?.code).toBe('57014');
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
