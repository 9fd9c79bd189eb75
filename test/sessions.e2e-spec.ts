import { randomUUID } from 'node:crypto';
import { FileLock } from '../src/modules/sessions/file-lock.entity';
import { Session } from '../src/modules/sessions/session.entity';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb, transactionsDuring } from './support/tenant-db';
import { hostedEnv, startApp } from './support/test-app';

describe.each(eachBackend())('sessions and file locks on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    projectId = (await run.http.post('/projects', { name: 'Sessions' })).body.id;
  });
  afterAll(async () => {
    await run?.stop();
  });

  const register = async (body: Record<string, unknown> = {}) => {
    const res = await run.http.post('/sessions/register', { project_id: projectId, ...body });
    expect(res.status).toBe(201);
    return res.body;
  };

  test('register gives each session a distinct default name and SERVICE_HUMAN_ID as human_id', async () => {
    const a = await register();
    const b = await register();
    expect(a).toMatchObject({ project_id: projectId, status: 'active', human_id: 'ada', kind: 'interactive' });
    expect(a.name).not.toBe(b.name);
    expect(a.name).toMatch(/^ada-/);
    const named = await register({ name: 'planner', human_id: 'grace', kind: 'worker' });
    expect(named).toMatchObject({ name: 'planner', human_id: 'grace', kind: 'worker' });
  });

  test('register refuses an unknown project (404), a malformed one and unknown fields (400)', async () => {
    expect((await run.http.post('/sessions/register', { project_id: randomUUID() })).status).toBe(404);
    expect((await run.http.post('/sessions/register', { project_id: 'nope' })).status).toBe(400);
    const extra = await run.http.post('/sessions/register', { project_id: projectId, colour: 'red' });
    expect(extra.status).toBe(400);
    expect(extra.body.detail).toMatch(/unknown field colour/);
  });

  test('heartbeat answers {ok: true} while active, {ok: false} once closed, 404 for an unknown id', async () => {
    const s = await register();
    const lastSeen = () => inTenantDb(run.testApp, run.token, async (m) => (await m.findOneByOrFail(Session, { id: s.id })).last_seen.getTime());
    const anHourAgo = new Date(Date.now() - 3600 * 1000);
    await inTenantDb(run.testApp, run.token, (m) => m.update(Session, { id: s.id }, { last_seen: anHourAgo }));
    expect((await run.http.post(`/sessions/${s.id}/heartbeat`)).body).toEqual({ ok: true, status: 'active', notices: [] });
    expect(await lastSeen()).toBeGreaterThan(Date.now() - 60 * 1000); // the beat is stored
    const closed = await run.http.post(`/sessions/${s.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ closed_now: true, session: { id: s.id, status: 'closed', close_reason: 'closed' } });
    await inTenantDb(run.testApp, run.token, (m) => m.update(Session, { id: s.id }, { last_seen: anHourAgo }));
    expect((await run.http.post(`/sessions/${s.id}/heartbeat`)).body).toEqual({ ok: false, status: 'closed', notices: [] });
    expect(await lastSeen()).toBe(anHourAgo.getTime()); // a closed session is not marked seen
    const again = await run.http.post(`/sessions/${s.id}/close`);
    expect(again.body.closed_now).toBe(false);
    expect((await run.http.post(`/sessions/${randomUUID()}/heartbeat`)).status).toBe(404);
  });

  test('GET /projects/{id}/sessions lists active sessions only; PATCH stores dashboard state', async () => {
    const s = await register({ name: 'listed' });
    const gone = await register({ name: 'gone' });
    await run.http.post(`/sessions/${gone.id}/close`);
    const list = (await run.http.get(`/projects/${projectId}/sessions`)).body as { id: string; status: string }[];
    expect(list.map((x) => x.id)).toContain(s.id);
    expect(list.map((x) => x.id)).not.toContain(gone.id);
    expect(list.every((x) => x.status === 'active')).toBe(true);
    const patched = await run.http.patch(`/sessions/${s.id}`, { state: { tab: 'sprint', collapsed: true } });
    expect(patched.body.state).toEqual({ tab: 'sprint', collapsed: true });
    expect((await run.http.get(`/sessions/${s.id}`)).body.state).toEqual({ tab: 'sprint', collapsed: true });
    expect((await run.http.patch(`/sessions/${s.id}`, { state: { blob: 'x'.repeat(20_000) } })).status).toBe(400);
    expect((await run.http.patch(`/sessions/${s.id}`, { state: 'text' })).status).toBe(400);
  });

  test('claim_file: a second session is refused with the holder named; force takes over; closing releases', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const a = await register({ name: 'alice' });
      const b = await register({ name: 'bob' });
      const claim = await callTool(client, 'claim_file', { file_path: './src//a.ts', session_id: b.id });
      expect(claim.value).toMatchObject({ claimed: true, file_path: 'src/a.ts', session_id: b.id });
      const lifetime = new Date(claim.value.expires_at).getTime() - new Date(claim.value.claimed_at).getTime();
      expect(lifetime).toBe(4 * 3600 * 1000);

      const refused = await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: a.id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('src/a.ts is locked by session bob');
      expect(refused.structured).toMatchObject({ code: 'FILE_LOCKED', claimed: false, holder_session_id: b.id, holder_name: 'bob' });

      const locks = (await run.http.get(`/projects/${projectId}/file-locks`)).body;
      expect(locks).toEqual([expect.objectContaining({ file_path: 'src/a.ts', session_id: b.id, session_name: 'bob' })]);

      // Renewal keeps claimed_at and extends expires_at.
      const renewed = await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: b.id, ttl_seconds: 7200 });
      expect(renewed.value.claimed_at).toBe(claim.value.claimed_at);

      const forced = await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: a.id, force: true });
      expect(forced.value).toMatchObject({ claimed: true, session_id: a.id });
      expect((await callTool(client, 'release_file', { file_path: 'src/a.ts', session_id: b.id })).value.released).toBe(false);

      await callTool(client, 'claim_file', { file_path: 'docs/x.md', session_id: a.id });
      await run.http.post(`/sessions/${a.id}/close`);
      expect((await run.http.get(`/projects/${projectId}/file-locks`)).body).toEqual([]);
      const afterClose = await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: b.id });
      expect(afterClose.value.claimed).toBe(true);
      expect((await callTool(client, 'release_file', { file_path: 'src/a.ts', session_id: b.id })).value).toEqual({ released: true, file_path: 'src/a.ts' });
      const closedClaim = await callTool(client, 'claim_file', { file_path: 'z.ts', session_id: a.id });
      expect(closedClaim.structured?.code).toBe('SESSION_CLOSED');
    } finally {
      await client.close();
    }
  });

  test('an expired lock is never reported and can be claimed by another session', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const a = await register();
      const b = await register();
      await callTool(client, 'claim_file', { file_path: 'old.ts', session_id: b.id });
      await inTenantDb(run.testApp, run.token, (m) => m.update(FileLock, { session_id: b.id }, { expires_at: new Date(Date.now() - 1000) }));
      expect((await run.http.get(`/projects/${projectId}/file-locks`)).body.map((l: { file_path: string }) => l.file_path)).not.toContain('old.ts');
      expect((await callTool(client, 'claim_file', { file_path: 'old.ts', session_id: a.id })).value.claimed).toBe(true);
    } finally {
      await client.close();
    }
  });

  test('eight sessions racing for one file: exactly one wins, the others are told who holds it', async () => {
    const sessions = await Promise.all(Array.from({ length: 8 }, (_, i) => register({ name: `racer-${i}` })));
    const clients = await Promise.all(sessions.map(() => connectMcp(run.testApp.url, run.token)));
    try {
      const results = await Promise.all(sessions.map((s, i) => callTool(clients[i], 'claim_file', { file_path: 'hot.ts', session_id: s.id })));
      const winners = results.filter((r) => !r.isError);
      expect(winners).toHaveLength(1);
      const holder = winners[0].value.session_id;
      for (const loser of results.filter((r) => r.isError)) expect(loser.structured?.holder_session_id).toBe(holder);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  test('the sweeper closes a silent session with the effects of a close, and leaves live ones alone', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const silent = await register({ name: 'silent' });
      const live = await register({ name: 'live' });
      await callTool(client, 'claim_file', { file_path: 'swept.ts', session_id: silent.id });
      await inTenantDb(run.testApp, run.token, (m) => m.update(Session, { id: silent.id }, { last_seen: new Date(Date.now() - 2 * 3600 * 1000) }));
      expect(await run.testApp.app.get(SessionsSweeper).sweepOnce()).toBeGreaterThanOrEqual(1);
      expect((await run.http.get(`/sessions/${silent.id}`)).body).toMatchObject({ status: 'closed', close_reason: 'swept' });
      expect((await run.http.get(`/sessions/${live.id}`)).body.status).toBe('active');
      expect((await run.http.get(`/projects/${projectId}/file-locks`)).body.map((l: { file_path: string }) => l.file_path)).not.toContain('swept.ts');
    } finally {
      await client.close();
    }
  });

  test('project settings: defaults, partial PATCH, validation', async () => {
    const defaults = await run.http.get(`/projects/${projectId}/settings`);
    expect(defaults.body).toEqual({
      max_pinned_decisions: 20,
      hitl_auto_answer: false,
      auto_worktrees: false,
      require_merge_approval: false,
      code_intel_enabled: true,
      execution_mode: 'autonomous',
      executor_config: {},
    });
    const patched = await run.http.patch(`/projects/${projectId}/settings`, { hitl_auto_answer: true, executor_config: { test_min: 2 } });
    expect(patched.body).toMatchObject({ hitl_auto_answer: true, max_pinned_decisions: 20, executor_config: { test_min: 2 } });
    expect((await run.http.patch(`/projects/${projectId}/settings`, { max_pinned_decisions: 5 })).body).toMatchObject({
      max_pinned_decisions: 5,
      hitl_auto_answer: true,
      executor_config: { test_min: 2 },
    });
    expect((await run.http.patch(`/projects/${projectId}/settings`, { max_pinned_decisions: 0 })).status).toBe(400);
    expect((await run.http.patch(`/projects/${projectId}/settings`, { execution_mode: 'yolo' })).status).toBe(400);
    expect((await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { rm_rf: true } })).status).toBe(400);
    expect((await run.http.get(`/projects/${randomUUID()}/settings`)).status).toBe(404);
  });
});

describe.each(hostedBackend())('sessions across tenants and instances on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' }); // sweeps run when a test asks
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's session ids answer 404 everywhere", async () => {
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const projectId = (await run.http.post('/projects', { name: 'Mine' })).body.id;
    const s = (await run.http.post('/sessions/register', { project_id: projectId })).body;
    expect((await intruder.get(`/sessions/${s.id}`)).status).toBe(404);
    expect((await intruder.post(`/sessions/${s.id}/heartbeat`)).status).toBe(404);
    expect((await intruder.post(`/sessions/${s.id}/close`)).status).toBe(404);
    expect((await intruder.patch(`/sessions/${s.id}`, { name: 'x' })).status).toBe(404);
    expect((await intruder.get(`/projects/${projectId}/sessions`)).status).toBe(404);
    expect((await intruder.get(`/projects/${projectId}/settings`)).status).toBe(404);
    expect((await intruder.post('/sessions/register', { project_id: projectId })).status).toBe(404);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      const claim = await callTool(client, 'claim_file', { file_path: 'a.ts', session_id: s.id });
      expect(claim.structured?.code).toBe('SESSION_NOT_FOUND');
    } finally {
      await client.close();
    }
    expect((await run.http.get(`/sessions/${s.id}`)).body.status).toBe('active');
  });

  test('a sweep opens a write transaction only in the workspaces that have something to sweep, and sweeps them', async () => {
    const hour = 3600 * 1000;
    const workspace = async (name: string) => {
      const t = await tenantClient(run.testApp, name);
      const projectId = (await t.http.post('/projects', { name })).body.id;
      const session = (await t.http.post('/sessions/register', { project_id: projectId })).body;
      const tenantId = (await run.testApp.app.get(TenantResolver).resolve(`Bearer ${t.token}`)).tenantId;
      return { ...t, projectId, session, tenantId };
    };
    const quiet = await workspace('Quiet workspace');
    const silent = await workspace('Silent session');
    const lapsed = await workspace('Lapsed lock');
    await inTenantDb(run.testApp, silent.token, (m) => m.update(Session, { id: silent.session.id }, { last_seen: new Date(Date.now() - 2 * hour) }));
    const client = await connectMcp(run.testApp.url, lapsed.token);
    try {
      expect((await callTool(client, 'claim_file', { file_path: 'lapsed.ts', session_id: lapsed.session.id })).value.claimed).toBe(true);
    } finally {
      await client.close();
    }
    await inTenantDb(run.testApp, lapsed.token, (m) => m.update(FileLock, { session_id: lapsed.session.id }, { expires_at: new Date(Date.now() - 60_000) }));

    const opened = await transactionsDuring(run.testApp, () => run.testApp.app.get(SessionsSweeper).sweepOnce());
    expect(opened.filter((id) => id === quiet.tenantId)).toEqual([]);
    expect(opened).toContain(silent.tenantId);
    expect(opened).toContain(lapsed.tenantId);
    expect((await silent.http.get(`/sessions/${silent.session.id}`)).body).toMatchObject({ status: 'closed', close_reason: 'swept' });
    expect((await quiet.http.get(`/sessions/${quiet.session.id}`)).body.status).toBe('active');
    expect((await lapsed.http.get(`/sessions/${lapsed.session.id}`)).body.status).toBe('active');
    expect(await inTenantDb(run.testApp, lapsed.token, (m) => m.count(FileLock, { where: { session_id: lapsed.session.id } }))).toBe(0);
  });

  test('a lock taken through one instance is honoured by another instance on the same database', async () => {
    const second = await startApp(hostedEnv(run.db!.url));
    try {
      const projectId = (await run.http.post('/projects', { name: 'Two instances' })).body.id;
      const a = (await run.http.post('/sessions/register', { project_id: projectId })).body;
      const b = (await new Http(second.url, run.token).post('/sessions/register', { project_id: projectId })).body;
      const one = await connectMcp(run.testApp.url, run.token);
      const two = await connectMcp(second.url, run.token);
      try {
        expect((await callTool(one, 'claim_file', { file_path: 'shared.ts', session_id: a.id })).value.claimed).toBe(true);
        const refused = await callTool(two, 'claim_file', { file_path: 'shared.ts', session_id: b.id });
        expect(refused.structured).toMatchObject({ code: 'FILE_LOCKED', holder_session_id: a.id });
      } finally {
        await one.close();
        await two.close();
      }
    } finally {
      await second.close();
    }
  });
});
