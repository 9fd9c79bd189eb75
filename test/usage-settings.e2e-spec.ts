import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { seedToolCalls } from './support/ai-log-seed';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { setPlan } from './support/plans';
import { tenantClient } from './support/tenant-client';
import { waitUntil } from './support/wait';
import { PLAN_USAGE_INCLUDED } from '../src/common/plans';

/** GET/PATCH /settings/usage: the plan and the workspace's overage caps. */
describe.each(eachBackend())('usage settings on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => run?.stop());

  test('defaults: no overage caps; self-hosted counts as paid, a new hosted workspace is free', async () => {
    const res = await run.http.get('/settings/usage');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ plan: run.testApp.config.isHosted ? 'free' : 'paid', compute_overage_cap_usd: null, storage_overage_cap_gb: null, updated_at: null });
  });

  test('PATCH changes only the fields it names, null removes a cap, and GET shows the result', async () => {
    const set = await run.http.patch('/settings/usage', { compute_overage_cap_usd: 50 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ compute_overage_cap_usd: 50, storage_overage_cap_gb: null, updated_at: expect.any(String) });
    expect((await run.http.patch('/settings/usage', { storage_overage_cap_gb: 20 })).body).toMatchObject({ compute_overage_cap_usd: 50, storage_overage_cap_gb: 20 });
    expect((await run.http.patch('/settings/usage', { compute_overage_cap_usd: null })).body).toMatchObject({ compute_overage_cap_usd: null, storage_overage_cap_gb: 20 });
    expect((await run.http.get('/settings/usage')).body).toMatchObject({ compute_overage_cap_usd: null, storage_overage_cap_gb: 20 });
  });

  test('usage meters tool calls and storage for the month; self-hosted and free workspaces show no push budget; no upgrade without checkout configured', async () => {
    const projectId = await createProject(run.http, 'metered');
    const before = (await run.http.get('/settings/usage')).body;
    expect(before.usage).toMatchObject({
      month: new Date().toISOString().slice(0, 7),
      run_minutes: 0,
      enforced: run.testApp.config.isHosted,
      compute_blocked: false,
      storage_blocked: false,
    });
    expect(before.usage.storage_bytes).toBeGreaterThan(0);
    const agent = await connectMcp(run.testApp.url, run.token);
    try {
      for (let i = 0; i < 3; i++) expect((await callTool(agent, 'get_project', { project_id: projectId })).isError).toBeFalsy();
    } finally {
      await agent.close();
    }
    await waitUntil(async () => (await run.http.get('/settings/usage')).body.usage.tool_calls >= before.usage.tool_calls + 3, 5000, 'three tool calls metered');
    const after = (await run.http.get('/settings/usage')).body;
    expect(after.usage.included).toEqual({
      tool_calls: PLAN_USAGE_INCLUDED[after.plan as 'free' | 'paid'].toolCalls,
      run_minutes: PLAN_USAGE_INCLUDED[after.plan as 'free' | 'paid'].runMinutes,
      storage_bytes: PLAN_USAGE_INCLUDED[after.plan as 'free' | 'paid'].storageBytes,
    });
    expect(after.push_budget).toBeNull();
    expect(after.upgrade_url).toBeNull();
  });

  test('bad input is refused 400 naming the field, and nothing changes', async () => {
    await run.http.patch('/settings/usage', { compute_overage_cap_usd: 10, storage_overage_cap_gb: 5 });
    await expectRefused(
      (body: unknown) => run.http.patch('/settings/usage', body),
      [
        [{ compute_overage_cap_usd: -1 }, /compute_overage_cap_usd must be at least 0/],
        [{ compute_overage_cap_usd: 100_001 }, /compute_overage_cap_usd must be at most 100000/],
        [{ compute_overage_cap_usd: 2.5 }, /compute_overage_cap_usd must be an integer/],
        [{ compute_overage_cap_usd: 'fifty' }, /compute_overage_cap_usd must be an integer/],
        [{ storage_overage_cap_gb: true }, /storage_overage_cap_gb must be an integer/],
        [{ storage_overage_cap_gb: 10_001 }, /storage_overage_cap_gb must be at most 10000/],
        [{ plan: 'paid' }, /plan/],
        ['[1]', /body|array|object/],
      ],
    );
    expect((await run.http.get('/settings/usage')).body).toMatchObject({
      plan: run.testApp.config.isHosted ? 'free' : 'paid',
      compute_overage_cap_usd: 10,
      storage_overage_cap_gb: 5,
    });
  });
});

describe.each(hostedBackend())('usage settings between tenants on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => run?.stop());

  test("one workspace's caps are not another's", async () => {
    const other = await tenantClient(run.testApp, 'tenant-b');
    await run.http.patch('/settings/usage', { compute_overage_cap_usd: 75 });
    expect((await other.http.get('/settings/usage')).body.compute_overage_cap_usd).toBeNull();
    await other.http.patch('/settings/usage', { storage_overage_cap_gb: 3 });
    expect((await run.http.get('/settings/usage')).body).toMatchObject({ compute_overage_cap_usd: 75, storage_overage_cap_gb: null });
  });
});

describe.each(hostedBackend())('usage caps and the push budget on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start({ BILLING_PAYMENT_LINK: 'https://pay.example.test/baton', SERVICE_PLAN_CACHE_SECONDS: '0' });
  });
  afterAll(async () => run?.stop());

  test('a free workspace is offered the upgrade; past its included tool calls every call is refused COMPUTE_CAP_REACHED until the overage cap allows more', async () => {
    const usage = (await run.http.get('/settings/usage')).body;
    expect(usage.upgrade_url).toBe('/checkout');
    const included = PLAN_USAGE_INCLUDED.free.toolCalls;
    seedToolCalls(run.testApp, run.token, null, included + 1);
    await waitUntil(async () => (await run.http.get('/settings/usage')).body.usage.tool_calls > included, 20000, 'seeded tool calls metered');
    const over = (await run.http.get('/settings/usage')).body.usage;
    expect(over).toMatchObject({ enforced: true, compute_blocked: true, compute_overage_usd: expect.any(Number) });
    const agent = await connectMcp(run.testApp.url, run.token);
    try {
      const refused = await callTool(agent, 'list_projects');
      expect(refused.isError).toBe(true);
      expect(refused.structured).toMatchObject({ code: 'COMPUTE_CAP_REACHED' });
      expect(refused.text).toMatch(/compute_overage_cap_usd/);
      expect((await run.http.patch('/settings/usage', { compute_overage_cap_usd: 5 })).status).toBe(200);
      expect((await run.http.get('/settings/usage')).body.usage.compute_blocked).toBe(false);
      expect((await callTool(agent, 'list_projects')).isError).toBeFalsy();
    } finally {
      await agent.close();
    }
    // Another workspace's usage is its own.
    const other = await tenantClient(run.testApp, 'metered-other');
    expect((await other.http.get('/settings/usage')).body.usage).toMatchObject({ tool_calls: 0, compute_blocked: false });
  }, 60_000);

  test('past the included storage and its cap, writes are refused STORAGE_CAP_REACHED over REST and MCP; reads and deletes work; raising the cap lets them through', async () => {
    const projectId = await createProject(run.http, 'full');
    // The workspace's storage is far below any real allowance: the allowance is lowered here instead, in this process.
    const included = PLAN_USAGE_INCLUDED.free as { storageBytes: number };
    const real = included.storageBytes;
    included.storageBytes = 0;
    const agent = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await run.http.patch('/settings/usage', { storage_overage_cap_gb: null })).body.usage.storage_blocked).toBe(true);
      const refused = await run.http.post('/projects', { name: `more ${Date.now()}` });
      expect([refused.status, refused.body.code]).toEqual([507, 'STORAGE_CAP_REACHED']);
      expect(refused.body.detail).toMatch(/storage_overage_cap_gb/);
      expect((await callTool(agent, 'add_note', { project_id: projectId, title: 'no room' })).structured).toMatchObject({ code: 'STORAGE_CAP_REACHED' });
      expect((await callTool(agent, 'get_project', { project_id: projectId })).isError).toBeFalsy();
      expect((await run.http.get(`/projects/${projectId}`)).status).toBe(200);
      // An agent at the cap still reads its messages (a receive only moves its cursor); sending one adds data.
      const receive = await run.http.post(`/projects/${projectId}/messages/receive`, { agent: 'reader' });
      expect([receive.status, receive.body.messages]).toEqual([200, []]);
      expect((await run.http.post(`/projects/${projectId}/messages`, { broadcast: true, body: 'no room' })).body.code).toBe('STORAGE_CAP_REACHED');
      const other = await tenantClient(run.testApp, 'roomy');
      // Another workspace has its own storage: its own allowance applies (lowered here too), and its own cap.
      expect((await other.http.patch('/settings/usage', { storage_overage_cap_gb: 1 })).status).toBe(200);
      expect((await other.http.post('/projects', { name: 'roomy project' })).status).toBe(201);
      expect((await run.http.delete(`/projects/${projectId}`)).status).toBe(204);
      expect((await run.http.patch('/settings/usage', { storage_overage_cap_gb: 1 })).body.usage.storage_blocked).toBe(false);
      expect((await run.http.post('/projects', { name: `room again ${Date.now()}` })).status).toBe(201);
    } finally {
      included.storageBytes = real;
      await agent.close();
      await run.http.patch('/settings/usage', { storage_overage_cap_gb: null });
    }
  });

  test('a paid workspace sees its push budget (used, limit, tier, reset) and no upgrade button', async () => {
    await setPlan(run, 'paid');
    try {
      const res = await run.http.get('/settings/usage');
      expect(res.status).toBe(200);
      const month = new Date().toISOString().slice(0, 7);
      const [y, m] = month.split('-').map(Number);
      expect(res.body.push_budget).toEqual({ used: expect.any(Number), limit: 1_000_000, tier: 'ok', month, resets_at: new Date(Date.UTC(y, m, 1)).toISOString() });
      expect(res.body.upgrade_url).toBeNull();
    } finally {
      await setPlan(run, 'free');
    }
  });
});
