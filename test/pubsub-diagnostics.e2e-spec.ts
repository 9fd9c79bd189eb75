import { randomUUID } from 'node:crypto';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const LOCAL = '00000000-0000-0000-0000-000000000000';

describe('pub/sub diagnostics on a self-hosted instance without Redis', () => {
  test('every field is there: unconfigured, no push, budget not enforced; another tenant id is 404, a malformed one 400', async () => {
    const testApp = await startApp();
    try {
      const http = new Http(testApp.url);
      const res = await http.get(`/tunnel/diagnostics/${LOCAL}`);
      expect(res.status).toBe(200);
      expect(res.body.tenant_id).toBe(LOCAL);
      expect(res.body.pubsub).toEqual({
        cache_url_configured: false,
        availability: 'unconfigured',
        push_live: false,
        connection_generation: 0,
        transitions: [],
        publish: { attempts: 0, successes: 0, failures: 0, fallbacks: 0, latency_ms_samples: [], latency_ms: { p50: null, p99: null, max: null } },
        polling: { interval_ms: 1000, safety_interval_ms: 10000, max_wait_seconds: 50 },
        budget: { plan: 'paid', enforced: false, tier: 'unlimited' },
        cache: { read_through: { implemented: false }, board_read: { live: true, entries: 0, hits: 0, misses: 0, invalidations: 0 } },
        last_error_class: null,
        last_error_age_seconds: null,
        last_construction_error_class: null,
        last_construction_error_age_seconds: null,
        last_connection_error_class: null,
        last_connection_error_age_seconds: null,
      });
      expect((await http.get(`/tunnel/diagnostics/${randomUUID()}`)).status).toBe(404);
      const bad = await http.get('/tunnel/diagnostics/not-a-tenant');
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toBe('tenant_id must be a UUID');
    } finally {
      await testApp.close();
    }
  });
});

describeRedis('pub/sub diagnostics on a hosted instance with Redis', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('diag') }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test("a tenant reads its own counters (REST and MCP alike); another tenant's id answers 404", async () => {
    const a = await tenantClient(testApp, 'diag-a');
    const b = await tenantClient(testApp, 'diag-b');
    await db.query("UPDATE control.tenants SET plan = 'paid'");
    const http = a.http;
    const projectId = (await http.post('/projects', { name: 'Diag' })).body.id;
    await waitUntil(async () => (await http.get(`/tunnel/diagnostics/${a.tenant_id}`)).body.pubsub.availability === 'reachable', 10_000, 'reachable');
    for (let i = 0; i < 3; i++) await http.post(`/projects/${projectId}/messages`, { to_agent: 'x', body: `d${i}` });
    const diag = await waitUntil(
      async () => {
        const d = (await http.get(`/tunnel/diagnostics/${a.tenant_id}`)).body;
        return d.pubsub.publish.successes >= 3 ? d : undefined;
      },
      5000,
      'publishes counted',
    );
    const p = diag.pubsub;
    expect(p).toMatchObject({ cache_url_configured: true, availability: 'reachable', push_live: true, connection_generation: 1 });
    expect(p.publish.successes).toBeGreaterThanOrEqual(3);
    expect(p.publish.latency_ms_samples.length).toBe(p.publish.successes);
    expect(p.publish.latency_ms.p50).toBeGreaterThan(0);
    expect(p.budget).toMatchObject({ plan: 'paid', enforced: true, tier: 'ok', push_paused: false, thresholds: { warning: 500000, disable: 1000000, admin_alert: 2000000 } });
    expect(p.transitions.map((t: { to: string }) => t.to)).toEqual(['connected_unverified', 'reachable']);
    // Presence only, never the URL.
    expect(JSON.stringify(diag)).not.toContain(new URL(REDIS_URL).host);

    // Tenant B's counters are its own.
    const other = (await b.http.get(`/tunnel/diagnostics/${b.tenant_id}`)).body.pubsub;
    expect(other.publish.successes).toBe(0);
    expect((await http.get(`/tunnel/diagnostics/${b.tenant_id}`)).status).toBe(404);
    expect((await new Http(testApp.url).get(`/tunnel/diagnostics/${a.tenant_id}`)).status).toBe(401);

    const client = await connectMcp(testApp.url, a.token);
    try {
      const viaMcp = await callTool(client, 'get_tunnel_diagnostics', { tenant_id: a.tenant_id });
      expect(Object.keys(viaMcp.value.pubsub).sort()).toEqual(Object.keys(p).sort());
      const foreign = await callTool(client, 'get_tunnel_diagnostics', { tenant_id: b.tenant_id });
      expect(foreign.isError).toBe(true);
      expect(foreign.structured).toMatchObject({ code: 'TENANT_NOT_FOUND' });
      expect((await callTool(client, 'get_tunnel_diagnostics', { tenant_id: 'x' })).text).toBe('tenant_id must be a UUID');
    } finally {
      await client.close();
    }
  });
});
