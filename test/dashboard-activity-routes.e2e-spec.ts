import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { dashboardSocket } from './support/dashboard-socket';
import { callToolOnce } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { waitUntil } from './support/wait';

/** The routes the dashboard's sessions, messages, handoffs and timeline views read, and the force-release a person makes there. */
describe.each(eachBackend())('dashboard activity routes on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  const register = async (name: string) => (await run.http.post('/sessions/register', { project_id: projectId, name })).body as { id: string; name: string };

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    projectId = await createProject(run.http, 'Activity');
  });
  afterAll(() => run?.stop());

  test('a person force-releases a file another session holds: the lock is gone, another session claims it, the dashboards are told', async () => {
    const holder = await register('holder');
    const other = await register('other');
    expect((await run.http.post(`/projects/${projectId}/file-locks/release`, { file_path: 'src/a.ts' })).status).toBe(404);
    const { ws, frames } = await dashboardSocket(run.testApp.url, run.token);
    try {
      const claim = await callClaim(holder.id, './src//a.ts');
      expect(claim).toMatchObject({ claimed: true, file_path: 'src/a.ts' });
      await waitUntil(() => frames.find((f) => f.event === 'file_lock_claimed'), 2000, 'file_lock_claimed');
      expect(frames.find((f) => f.event === 'file_lock_claimed')!.data).toMatchObject({
        project_id: projectId,
        lock: { file_path: 'src/a.ts', session_id: holder.id, session_name: 'holder' },
      });
      const refused = await callClaimRaw(other.id, 'src/a.ts');
      expect([refused.isError, refused.text]).toEqual([true, expect.stringContaining('src/a.ts is locked by session holder')]);

      const forced = await run.http.post(`/projects/${projectId}/file-locks/release`, { file_path: 'src\\a.ts' });
      expect([forced.status, forced.body]).toEqual([200, { released: true, file_path: 'src/a.ts', session_id: holder.id }]);
      expect((await run.http.get(`/projects/${projectId}/file-locks`)).body).toEqual([]);
      await waitUntil(() => frames.find((f) => f.event === 'file_lock_released'), 2000, 'file_lock_released');
      expect(frames.find((f) => f.event === 'file_lock_released')!.data).toEqual({ project_id: projectId, file_path: 'src/a.ts', session_id: holder.id, forced: true });
      expect(await callClaim(other.id, 'src/a.ts')).toMatchObject({ claimed: true, session_id: other.id });
      // The holder is still active; only its lock went.
      expect((await run.http.get(`/sessions/${holder.id}`)).body.status).toBe('active');
      expect((await run.http.post(`/projects/${projectId}/file-locks/release`, { file_path: 'src/a.ts' })).body).toMatchObject({ session_id: other.id });
      expect((await run.http.post(`/projects/${projectId}/file-locks/release`, { file_path: 'src/a.ts' })).body.detail).toBe('no session holds a lock on src/a.ts');
    } finally {
      ws.close();
    }
  });

  test('force-release refuses bad input with a detail naming the field, and changes nothing', async () => {
    const s = await register('keeper');
    await callClaim(s.id, 'keep.ts');
    await expectRefused(
      (body: unknown) => run.http.post(`/projects/${projectId}/file-locks/release`, body),
      [
        [{}, /file_path/],
        [{ file_path: 42 }, /file_path/],
        [{ file_path: '' }, /file_path/],
        [{ file_path: '../etc/passwd' }, /file_path must stay inside the repository/],
        [{ file_path: 'a\u0000b' }, /file_path/],
      ],
    );
    expect((await run.http.post(`/projects/not-a-uuid/file-locks/release`, { file_path: 'keep.ts' })).body.detail).toMatch(/project_id/);
    expect((await run.http.post(`/projects/${randomUUID()}/file-locks/release`, { file_path: 'keep.ts' })).status).toBe(404);
    expect((await run.http.get(`/projects/${projectId}/file-locks`)).body.map((l: { file_path: string }) => l.file_path)).toContain('keep.ts');
  });

  test('the sessions list shows closed sessions on request; a heartbeat is published with the new last_seen', async () => {
    const live = await register('live');
    const gone = await register('gone');
    await run.http.post(`/sessions/${gone.id}/close`, {});
    const active = (await run.http.get(`/projects/${projectId}/sessions`)).body.map((s: { id: string }) => s.id);
    expect(active).toContain(live.id);
    expect(active).not.toContain(gone.id);
    const all = (await run.http.get(`/projects/${projectId}/sessions?include_closed=true`)).body as { id: string; status: string }[];
    expect(all.find((s) => s.id === gone.id)?.status).toBe('closed');
    expect(all.findIndex((s) => s.id === gone.id)).toBeGreaterThan(all.findIndex((s) => s.id === live.id));
    expect((await run.http.get(`/projects/${projectId}/sessions?include_closed=yes`)).body.detail).toBe('include_closed must be true or false');
    const { ws, frames } = await dashboardSocket(run.testApp.url, run.token);
    try {
      await run.http.post(`/sessions/${live.id}/heartbeat`, {});
      const seen = await waitUntil(() => frames.find((f) => f.event === 'session_seen'), 2000, 'session_seen');
      expect(seen.data.session_id).toBe(live.id);
      expect(seen.data.last_seen).toBe((await run.http.get(`/sessions/${live.id}`)).body.last_seen);
    } finally {
      ws.close();
    }
  });

  test('the messages list: every message of the project newest first, paged by before_seq, moving no reader cursor', async () => {
    const own = await createProject(run.http, 'Chatter');
    const bob = (await run.http.post('/sessions/register', { project_id: own, name: 'bob' })).body;
    for (const body of ['one', 'two', 'three']) expect((await run.http.post(`/projects/${own}/messages`, { to_session_id: bob.id, body, from: 'alice' })).status).toBe(201);
    await run.http.post(`/projects/${own}/messages`, { broadcast: true, body: 'all hands' });
    const first = await run.http.get(`/projects/${own}/messages?limit=3`);
    expect(first.status).toBe(200);
    expect(first.body.messages.map((m: { body: string }) => m.body)).toEqual(['all hands', 'three', 'two']);
    const older = await run.http.get(`/projects/${own}/messages?limit=3&before_seq=${first.body.next_before_seq}`);
    expect(older.body).toMatchObject({ messages: [{ body: 'one', from: 'alice', recipient_kind: 'session', recipient: bob.id }], next_before_seq: null });
    // Bob still receives all of his and the broadcast: listing moved nothing.
    const received = (await run.http.post(`/projects/${own}/messages/receive`, { session_id: bob.id })).body.messages;
    expect(received.map((m: { body: string }) => m.body)).toEqual(['one', 'two', 'three', 'all hands']);
    // Another project's list holds none of these (only its own, such as the notices of a lock taken earlier here).
    const other = (await run.http.get(`/projects/${projectId}/messages`)).body.messages as { project_id: string; body: string }[];
    expect(other.every((m) => m.project_id === projectId)).toBe(true);
    expect(other.map((m) => m.body)).not.toEqual(expect.arrayContaining(['one']));
    await expectRefused(
      (q: string) => run.http.get(`/projects/${own}/messages?${q}`),
      [
        ['limit=0', /limit/],
        ['limit=abc', /limit must be an integer/],
        ['limit=501', /limit/],
        ['before_seq=-1', /before_seq/],
        ['before_seq=x', /before_seq must be an integer/],
      ],
    );
    expect((await run.http.get(`/projects/${randomUUID()}/messages`)).status).toBe(404);
    expect((await run.http.get(`/projects/nope/messages`)).body.detail).toMatch(/project_id/);
  });

  test('the handoffs list: waiting with what it carries, then accepted by the session that started from it; both published', async () => {
    const own = await createProject(run.http, 'Relay');
    const author = (await run.http.post('/sessions/register', { project_id: own, name: 'author' })).body;
    await callClaim(author.id, 'carried.ts');
    expect((await run.http.get(`/projects/${own}/handoffs`)).body).toEqual([]);
    const { ws, frames } = await dashboardSocket(run.testApp.url, run.token);
    try {
      const made = await run.http.post(`/projects/${own}/handoff`, { session_id: author.id, carry: true });
      expect(made.status).toBe(201);
      await waitUntil(() => frames.find((f) => f.event === 'handoff_generated'), 2000, 'handoff_generated');
      expect(frames.find((f) => f.event === 'handoff_generated')!.data).toMatchObject({ project_id: own, handoff: { id: made.body.handoff_id } });
      const [waiting] = (await run.http.get(`/projects/${own}/handoffs`)).body;
      expect(waiting).toMatchObject({
        id: made.body.handoff_id,
        status: 'waiting',
        from_session_name: 'author',
        consumed_at: null,
        carries: { file_locks: 1, sprint_items: 0, tasks: 0 },
      });
      const started = await run.http.post(`/projects/${own}/start-session`, { name: 'taker', handoff_id: made.body.handoff_id });
      expect(started.status).toBe(201);
      await waitUntil(() => frames.find((f) => f.event === 'handoff_accepted'), 2000, 'handoff_accepted');
      expect(frames.find((f) => f.event === 'handoff_accepted')!.data).toMatchObject({ project_id: own, handoff_id: made.body.handoff_id, session_id: started.body.session_id });
      const [accepted] = (await run.http.get(`/projects/${own}/handoffs`)).body;
      expect(accepted).toMatchObject({ status: 'accepted', consumed_by_session_id: started.body.session_id, consumed_by_session_name: 'taker', carries: null });
    } finally {
      ws.close();
    }
    await expectRefused(
      (q: string) => run.http.get(`/projects/${own}/handoffs?${q}`),
      [
        ['limit=0', /limit/],
        ['limit=201', /limit/],
        ['limit=two', /limit must be an integer/],
      ],
    );
    expect((await run.http.get(`/projects/${randomUUID()}/handoffs`)).status).toBe(404);
  });

  test('stored AI-log events are announced to the dashboards (ai_log_written), and the timeline shows them', async () => {
    const own = await createProject(run.http, 'Logged');
    const { ws, frames } = await dashboardSocket(run.testApp.url, run.token);
    try {
      const started = await run.http.post(`/projects/${own}/start-session`, { name: 'logged' });
      expect(started.status).toBe(201);
      await waitUntil(() => frames.find((f) => f.event === 'ai_log_written'), 3000, 'ai_log_written');
      const timeline = (await run.http.get(`/projects/${own}/timeline`)).body;
      expect(timeline.events.map((e: { kind: string; session_id: string }) => [e.kind, e.session_id])).toEqual([['session_start', started.body.session_id]]);
    } finally {
      ws.close();
    }
  });

  /** Sessions claim files over MCP (claim_file has no REST route), as agents do. */
  function callClaimRaw(sessionId: string, filePath: string) {
    return callToolOnce(run.testApp.url, run.token, 'claim_file', { session_id: sessionId, file_path: filePath });
  }

  async function callClaim(sessionId: string, filePath: string) {
    const res = await callClaimRaw(sessionId, filePath);
    expect([res.isError, res.text]).toEqual([false, expect.any(String)]);
    return res.value;
  }
});

describe.each(hostedBackend())('dashboard activity routes across tenants on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(() => run?.stop());

  test("another tenant's project answers 404 on every route, like an unknown id, and its lock stays", async () => {
    const theirs = await tenantClient(run.testApp, 'tenant-b');
    const projectId = await createProject(theirs.http, 'Theirs');
    const session = (await theirs.http.post('/sessions/register', { project_id: projectId, name: 'theirs' })).body;
    expect((await callToolOnce(run.testApp.url, theirs.token, 'claim_file', { session_id: session.id, file_path: 'x.ts' })).isError).toBe(false);
    for (const id of [projectId, randomUUID()]) {
      for (const path of ['sessions?include_closed=true', 'messages', 'handoffs', 'timeline', 'file-locks']) {
        const res = await run.http.get(`/projects/${id}/${path}`);
        expect([path, res.status, res.body.detail]).toEqual([path, 404, expect.stringMatching(/project not found/)]);
      }
      const forced = await run.http.post(`/projects/${id}/file-locks/release`, { file_path: 'x.ts' });
      expect([forced.status, forced.body.detail]).toEqual([404, expect.stringMatching(/project not found/)]);
    }
    expect((await theirs.http.get(`/projects/${projectId}/file-locks`)).body.map((l: { file_path: string }) => l.file_path)).toEqual(['x.ts']);
  });
});
