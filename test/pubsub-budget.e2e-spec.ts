import Redis from 'ioredis';
import { budgetCountKey, monthOf } from '../libs/pubsub';
import { dashboardSocket } from './support/dashboard-socket';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

describeRedis('push budget tiers (hosted, small thresholds)', () => {
  const prefix = uniquePrefix('budget');
  let db: TestDatabase;
  let testApp: TestApp;
  let mail: Receiver;
  let ntfy: Receiver;
  let redis: Redis;

  beforeAll(async () => {
    mail = await Receiver.start();
    ntfy = await Receiver.start();
    redis = new Redis(REDIS_URL);
    db = await TestDatabase.create();
    testApp = await startApp(
      hostedEnv(db.url, {
        SERVICE_CACHE_URL: REDIS_URL,
        SERVICE_PUBSUB_PREFIX: prefix,
        SERVICE_PUSH_BUDGET_WARNING: '4',
        SERVICE_PUSH_BUDGET_DISABLE: '8',
        SERVICE_PUSH_BUDGET_ADMIN_ALERT: '20',
        SERVICE_PLAN_CACHE_SECONDS: '0',
        SERVICE_POLL_INTERVAL_MS: '300',
        SERVICE_ADMIN_NTFY_URL: `${ntfy.url}/admin-topic`,
        ADMIN_EMAIL: 'ops@example.test',
        EMAIL_API_KEY: 're_test',
        SERVICE_EMAIL_API_URL: mail.url,
      }),
    );
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await mail?.close();
    await ntfy?.close();
  });

  const tenant = async (name: string, plan: 'free' | 'paid') => {
    const t = await tenantClient(testApp, name);
    await db.query('UPDATE control.tenants SET plan = $1, contact_email = $2 WHERE id = $3', [plan, `${name}@example.test`, t.tenant_id]);
    const projectId = (await t.http.post('/projects', { name })).body.id as string;
    return { ...t, projectId, email: `${name}@example.test` };
  };
  const pubsub = async (t: { http: Http; tenant_id: string }) => (await t.http.get(`/tunnel/diagnostics/${t.tenant_id}`)).body.pubsub;
  const emailsTo = (to: string) => mail.at('/emails').filter((r) => r.body.to === to);

  test('warning once, then push paused with one hard-limit e-mail; messages keep arriving by polling; other tenants keep push', async () => {
    const a = await tenant('budget-a', 'paid');
    const b = await tenant('budget-b', 'paid');
    await waitUntil(async () => (await pubsub(a)).availability === 'reachable', 10_000, 'reachable');
    const socket = await dashboardSocket(testApp.url, a.token);
    try {
      let sent = 0;
      while ((await pubsub(a)).budget.tier !== 'disabled' && sent < 30) {
        await a.http.post(`/projects/${a.projectId}/messages`, { to_agent: 'r', body: `m${sent++}` });
        await sleep(50);
      }
      const paused = await pubsub(a);
      expect(paused.budget).toMatchObject({ plan: 'paid', enforced: true, tier: 'disabled', push_paused: true, month: monthOf(new Date()) });
      expect(paused.budget.count).toBeGreaterThanOrEqual(8);
      expect(paused.push_live).toBe(false);
      await waitUntil(() => emailsTo(a.email).length === 2, 5000, 'two e-mails to the tenant');

      // Past the pause: nothing is published for this tenant, nothing is lost.
      const before = paused.publish;
      for (let i = 0; i < 5; i++) await a.http.post(`/projects/${a.projectId}/messages`, { to_agent: 'r', body: `late${i}` });
      // The wake-up of a send happens after it has answered: wait for the counters to show all five.
      const after = await waitUntil(
        async () => {
          const d = await pubsub(a);
          return d.publish.fallbacks >= before.fallbacks + 5 ? d : undefined;
        },
        5000,
        'five fallbacks of tenant A',
      );
      expect(after.publish.attempts).toBe(before.attempts);
      expect(after.publish.fallbacks).toBe(before.fallbacks + 5);
      expect(after.budget.count).toBe(paused.budget.count);
      const received = (await a.http.post(`/projects/${a.projectId}/messages/receive`, { agent: 'r', limit: 500 })).body.messages.map((m: { body: string }) => m.body);
      expect(received).toEqual([...Array.from({ length: sent }, (_, i) => `m${i}`), ...Array.from({ length: 5 }, (_, i) => `late${i}`)]);

      await sleep(500);
      const mails = emailsTo(a.email);
      expect(mails.map((m) => m.body.subject)).toEqual([expect.stringMatching(/used most of this month/), expect.stringMatching(/paused until next month/)]);
      expect(socket.frames.filter((f) => f.event === 'push_budget_warning')).toHaveLength(1);
      expect(socket.frames.filter((f) => f.event === 'push_budget_exhausted')).toHaveLength(1);
      expect(after.budget.alerts_sent.map((r: { tier: string }) => r.tier)).toEqual(['warning', 'disable']);
      expect(ntfy.requests).toHaveLength(0);

      // Tenant B is untouched: its publishes still go out through Redis. Its publishes (the
      // project's creation, then two messages) stay under the warning threshold of 4.
      const bBefore = (await pubsub(b)).publish;
      for (let i = 0; i < 2; i++) await b.http.post(`/projects/${b.projectId}/messages`, { to_agent: 'r', body: `b${i}` });
      // Publishing happens after the send has answered: wait for the counters to show it.
      const other = await waitUntil(
        async () => {
          const d = await pubsub(b);
          return d.publish.successes >= bBefore.successes + 2 ? d : undefined;
        },
        5000,
        'two publishes of tenant B',
      );
      expect(other.push_live).toBe(true);
      expect(other.budget).toMatchObject({ tier: 'ok', push_paused: false });
      expect(other.publish.fallbacks).toBe(bBefore.fallbacks);
      expect(emailsTo(b.email)).toHaveLength(0);
    } finally {
      socket.ws.close();
    }
  });

  test('passing the admin threshold (the pause failed elsewhere) alerts the operator once, by ntfy and e-mail', async () => {
    const c = await tenant('budget-c', 'paid');
    // Another instance (one without the pause) kept publishing: the shared count is past the admin threshold.
    await redis.set(budgetCountKey(prefix, c.tenant_id, monthOf(new Date())), '25');
    await c.http.post(`/projects/${c.projectId}/messages`, { to_agent: 'r', body: 'tips it over' });
    await waitUntil(() => ntfy.requests.length === 1 && mail.at('/emails').some((r) => r.body.to === 'ops@example.test'), 5000, 'admin alert');
    for (let i = 0; i < 3; i++) await c.http.post(`/projects/${c.projectId}/messages`, { to_agent: 'r', body: `more${i}` });
    await sleep(500);
    expect(ntfy.requests).toHaveLength(1);
    expect(ntfy.requests[0].path).toBe('/admin-topic');
    expect(ntfy.requests[0].body).toMatchObject({ event: 'push_budget_admin_alert', tenant_id: c.tenant_id, source: 'baton' });
    expect(ntfy.requests[0].headers.priority).toBe('urgent');
    expect(mail.at('/emails').filter((r) => r.body.to === 'ops@example.test')).toHaveLength(1);
    expect((await pubsub(c)).budget).toMatchObject({ tier: 'admin_alert', push_paused: true });
  });

  test('a free-tier tenant gets no push: nothing is published, every wake-up falls back to polling, messages still arrive', async () => {
    const f = await tenant('budget-free', 'free');
    await f.http.post(`/projects/${f.projectId}/messages/receive`, { agent: 'w' });
    const waiting = f.http.post(`/projects/${f.projectId}/messages/receive`, { agent: 'w', wait_seconds: 10 });
    await sleep(200);
    await f.http.post(`/projects/${f.projectId}/messages`, { to_agent: 'w', body: 'free mail' });
    expect((await waiting).body.messages.map((m: { body: string }) => m.body)).toEqual(['free mail']);
    const diag = await pubsub(f);
    expect(diag.push_live).toBe(false);
    expect(diag.budget).toMatchObject({ plan: 'free', count: 0, tier: 'ok' });
    expect(diag.publish.attempts).toBe(0);
    expect(diag.publish.fallbacks).toBeGreaterThan(0);
    expect(await redis.get(budgetCountKey(prefix, f.tenant_id, monthOf(new Date())))).toBeNull();
  });
});
