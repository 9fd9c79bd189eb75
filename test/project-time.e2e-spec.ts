import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { bindParams, sqlTimestamp, TenantDb } from '../libs/tenancy';
import { RealtimeEvents } from '../src/common/events/realtime-events';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient, TenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { sleep, waitUntil } from './support/wait';

const ENV = { SERVICE_SWEEP_INTERVAL_SECONDS: '0' };

async function startSession(http: Http, project: string): Promise<string> {
  const res = await http.post('/sessions/register', { project_id: project, name: `s-${randomUUID().slice(0, 6)}` });
  expect(res.status).toBe(201);
  return res.body.id ?? res.body.session_id;
}

/** A client of POST .../events holding the project's webhook token (a new one: the previous stops working). */
async function webhookClient(run: RunningBackend, project: string): Promise<Http> {
  const issued = await run.http.get(`/projects/${project}/webhook-token`);
  expect(issued.status).toBe(200);
  return new Http(run.testApp.url).withHeaders({ 'x-webhook-token': issued.body.token });
}

/** Reads Server-Sent Events from `url` until the stream ends or `until` says enough came. */
async function readEvents(url: string, token: string | undefined, until: (events: { event: string; data: any }[]) => boolean, onOpen?: () => Promise<void>) {
  const controller = new AbortController();
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, signal: controller.signal });
  const events: { event: string; data: any }[] = [];
  if (res.status !== 200) return { status: res.status, events, ended: false, body: (await res.json()) as { detail?: string } };
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = false;
  const opened = onOpen?.();
  while (!until(events)) {
    const { value, done } = await reader.read();
    if (done) {
      ended = true;
      break;
    }
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(frame)?.[1];
      const data = /^data: (.*)$/m.exec(frame)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) });
    }
  }
  await opened;
  if (!ended) controller.abort();
  return { status: 200, events, ended, body: {} as { detail?: string } };
}

describe.each(eachBackend())('a project over time on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start(ENV);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('GET stats counts items by status, tasks per day, sessions, HITL and claim times; refuses a bad days', async () => {
    const p = await createProject(run.http, 'Stats');
    const s = await startSession(run.http, p);
    for (const status of ['done', 'done', 'pending'])
      expect((await run.http.post('/tasks', { project_id: p, session_id: s, description: `t ${status}`, status })).status).toBe(201);
    const a = (await run.http.post(`/projects/${p}/sprint-items`, { title: 'Write the parser', version: 'v1' })).body;
    await run.http.post(`/projects/${p}/sprint-items`, { title: 'Ship the release notes', version: 'v1' });
    expect((await run.http.post(`/projects/${p}/sprint-items/${a.id}/claim`, { session_id: s })).status).toBe(200);
    expect((await run.http.post(`/projects/${p}/sprint-items/${a.id}/complete`, { session_id: s, notes: 'parsed' })).status).toBe(200);
    const h = await run.http.post(`/projects/${p}/hitl`, { question: 'Ship it?', session_id: s });
    expect(h.status).toBe(201);
    await run.http.post(`/projects/${p}/hitl`, { question: 'And the docs?', session_id: s });
    expect((await run.http.patch(`/hitl/${h.body.id}`, { answer: 'yes' })).status).toBe(200);

    const res = await run.http.get(`/projects/${p}/stats?days=3`);
    expect(res.status).toBe(200);
    expect(res.body.sprint_items).toEqual({ total: 2, by_status: { done: 1, pending: 1 }, percent_done: 50 });
    expect(res.body.tasks.total).toBe(3);
    expect(res.body.tasks.by_status).toEqual({ done: 2, pending: 1 });
    expect(res.body.tasks.per_day).toHaveLength(3);
    expect(res.body.tasks.per_day[2]).toEqual({ date: new Date().toISOString().slice(0, 10), logged: 3, done: 2 });
    expect(res.body.sessions).toEqual({ total: 1, active: 1, closed: 0 });
    expect(res.body.hitl).toMatchObject({ pending: 1, answered: 1, dismissed: 0, median_answer_seconds: expect.any(Number) });
    expect(res.body.claims).toMatchObject({ completed: 1, open: 0, oldest_open_claim_seconds: null, median_claim_to_done_seconds: expect.any(Number) });
    expect(res.body.latest_summary).toBeNull();
    expect((await run.http.get(`/projects/${p}/stats`)).body.tasks.per_day).toHaveLength(14);

    for (const days of ['0', '91', 'x', '1.5']) {
      const bad = await run.http.get(`/projects/${p}/stats?days=${days}`);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/days/);
    }
    expect((await run.http.get(`/projects/${randomUUID()}/stats`)).status).toBe(404);
    expect((await run.http.get('/projects/not-an-id/stats')).body.detail).toMatch(/project_id/);
  });

  test('GET runtime_diagnostics shows active sessions with heartbeats, locks, claimed items and push state', async () => {
    const p = await createProject(run.http, 'Runtime');
    const s = await startSession(run.http, p);
    const closed = await startSession(run.http, p);
    expect((await run.http.post(`/sessions/${closed}/close`, {})).status).toBeLessThan(300);
    const item = (await run.http.post(`/projects/${p}/sprint-items`, { title: 'Index the files', version: 'v1' })).body;
    await run.http.post(`/projects/${p}/sprint-items/${item.id}/claim`, { session_id: s });
    await inTenantDb(run.testApp, run.token, async (m) => {
      const dialect = run.testApp.app.get(TenantDb).dialect;
      const now = new Date();
      await m.query(
        ...bindParams(dialect, 'INSERT INTO file_locks (id, project_id, session_id, file_path, claimed_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6)', [
          randomUUID(),
          p,
          s,
          'src/a.ts',
          sqlTimestamp(dialect, now),
          sqlTimestamp(dialect, new Date(now.getTime() + 3600_000)),
        ]),
      );
    });
    const res = await run.http.get(`/projects/${p}/runtime_diagnostics`);
    expect(res.status).toBe(200);
    expect(res.body.active_sessions).toEqual([expect.objectContaining({ id: s, stale: false, seconds_since_heartbeat: expect.any(Number), last_seen: expect.any(String) })]);
    expect(res.body.file_locks).toEqual([expect.objectContaining({ file_path: 'src/a.ts', session_id: s, expired: false })]);
    expect(res.body.claimed_sprint_items).toEqual([expect.objectContaining({ id: item.id, title: 'Index the files', session_id: s })]);
    expect(res.body.push).toEqual({ live: false, availability: expect.any(String), poll_interval_ms: expect.any(Number) });
    expect((await run.http.get(`/projects/${randomUUID()}/runtime_diagnostics`)).status).toBe(404);
    expect((await run.http.get('/projects/x/runtime_diagnostics')).status).toBe(400);
  });

  test('POST events turns a framework event into a task; refuses unknown kinds and missing fields, changing nothing', async () => {
    const p = await createProject(run.http, 'Events');
    const s = await startSession(run.http, p);
    const hook = await webhookClient(run, p);
    const res = await hook.post(`/projects/${p}/events`, { kind: 'tool_use', framework: 'langgraph', name: 'search_docs', text: 'query "locks"', session_id: s });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ project_id: p, session_id: s, description: '[langgraph] tool_use search_docs: query "locks"', status: 'done' });
    const err = await hook.post(`/projects/${p}/events`, { kind: 'error', text: 'rate limited' });
    expect(err.body).toMatchObject({ session_id: null, description: 'error: rate limited', status: 'failed' });
    const cases: [unknown, RegExp][] = [
      [{ kind: 'thought', name: 'x' }, /^kind must be one of/],
      [{ kind: 'step' }, /^name is required/],
      [{ kind: 'message' }, /^text is required/],
      [{ kind: 'step', name: 'x', session_id: 'nope' }, /session_id must be a UUID/],
      [{ kind: 'step', name: 'x', extra: 1 }, /extra/],
      [{ kind: 'step', name: '   ' }, /name must not be blank/],
    ];
    for (const [body, detail] of cases) {
      const bad = await hook.post(`/projects/${p}/events`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(detail);
    }
    expect((await hook.post(`/projects/${p}/events`, { kind: 'step', name: 'x', session_id: randomUUID() })).status).toBe(404);
    // The token is the project's: another project id, existing or not, is refused like a wrong token.
    expect((await hook.post(`/projects/${randomUUID()}/events`, { kind: 'step', name: 'x' })).status).toBe(401);
    const tasks = (await run.http.get(`/projects/${p}/tasks`)).body;
    expect(tasks.map((t: { description: string }) => t.description).sort()).toEqual(['[langgraph] tool_use search_docs: query "locks"', 'error: rate limited']);
  });

  test('GET webhook-token shows a new token once; POST events takes it as Bearer or X-Webhook-Token and nothing else, the replaced one no more', async () => {
    const p = await createProject(run.http, 'Webhook');
    const other = await createProject(run.http, 'Webhook other');
    const first = await run.http.get(`/projects/${p}/webhook-token`);
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.body).toMatchObject({ project_id: p, kind: 'webhook', token: expect.stringMatching(/^bwh_[0-9a-f]{32}_/), expires_at: null });
    const second = (await run.http.get(`/projects/${p}/webhook-token`)).body.token;
    expect(second).not.toBe(first.body.token);
    const anonymous = new Http(run.testApp.url);
    const sent = await anonymous.post(`/projects/${p}/events`, { kind: 'step', name: 'plan' }, { authorization: `Bearer ${second}` });
    expect(sent.status).toBe(201);
    expect(sent.body.description).toBe('step plan');
    const byHeader = await anonymous.post(`/projects/${p}/events`, { kind: 'step', name: 'ship' }, { 'x-webhook-token': second });
    expect(byHeader.status).toBe(201);
    expect(byHeader.body.description).toBe('step ship');
    const refusals: [string, Record<string, string>, string][] = [
      ['old token as bearer', { authorization: `Bearer ${first.body.token}` }, ''],
      ['old token in the header', { 'x-webhook-token': first.body.token }, ''],
      ['a wrong token in the header', { 'x-webhook-token': `${second.slice(0, -4)}AAAA` }, ''],
      ['something else in the header', { 'x-webhook-token': 'letmein' }, ''],
      ['the token in the query string', {}, `?token=${second}`],
      ["the workspace's own credentials", run.token ? { authorization: `Bearer ${run.token}` } : {}, ''],
    ];
    for (const [what, headers, query] of refusals) {
      const refused = await anonymous.post(`/projects/${p}/events${query}`, { kind: 'step', name: 'nope' }, headers);
      expect([what, refused.status]).toEqual([what, 401]);
      expect(refused.body.detail).toMatch(/webhook token/);
    }
    const logged = (await run.http.get(`/projects/${p}/tasks`)).body.map((t: { description: string }) => t.description);
    expect(logged.sort()).toEqual(['step plan', 'step ship']);
    expect((await anonymous.post(`/projects/${other}/events`, { kind: 'step', name: 'plan' }, { authorization: `Bearer ${second}` })).status).toBe(401);
    // The webhook token opens POST .../events only.
    const stats = await anonymous.get(`/projects/${p}/stats`, { authorization: `Bearer ${second}` });
    if (run.token) expect(stats.status).toBe(401);
    expect((await run.http.get(`/projects/${randomUUID()}/webhook-token`)).status).toBe(404);
  });

  test('GET rewind shows the goal, sprint items, pinned decisions and notes as they were; a rewind token shares it read-only', async () => {
    const p = await createProject(run.http, 'Rewind');
    const s = await startSession(run.http, p);
    expect((await run.http.post(`/projects/${p}/goal`, { content: 'Goal one' })).status).toBe(200);
    const item = (await run.http.post(`/projects/${p}/sprint-items`, { title: 'Draft the schema', version: 'v1' })).body;
    const decision = (await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Use SQLite locally', body: 'small installs' })).body;
    const note = (await run.http.post(`/projects/${p}/notes`, { title: 'Runbook', body: 'restart', tags: ['ops'] })).body;
    await sleep(20);
    const t1 = new Date().toISOString();
    await sleep(20);
    await run.http.post(`/projects/${p}/goal`, { content: 'Goal two' });
    await run.http.post(`/projects/${p}/sprint-items/${item.id}/claim`, { session_id: s });
    expect((await run.http.delete(`/projects/${p}/notes/${note.id}`)).status).toBe(204);
    await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Later decision', body: '' });

    const then = await run.http.get(`/projects/${p}/rewind?at=${encodeURIComponent(t1)}`);
    expect(then.status).toBe(200);
    expect(then.body.goal).toMatchObject({ content: 'Goal one', version: 1 });
    expect(then.body.sprint_items).toEqual([expect.objectContaining({ id: item.id, title: 'Draft the schema', status: 'pending', version: 'v1' })]);
    expect(then.body.pinned_decisions).toEqual([expect.objectContaining({ id: decision.id, title: 'Use SQLite locally', body: 'small installs' })]);
    expect(then.body.notes).toEqual([expect.objectContaining({ id: note.id, title: 'Runbook', tags: ['ops'] })]);
    const now = (await run.http.get(`/projects/${p}/rewind?at=${encodeURIComponent(new Date().toISOString())}`)).body;
    expect(now.goal.content).toBe('Goal two');
    expect(now.sprint_items[0].status).toBe('in_progress');
    expect(now.notes).toEqual([]);
    expect(now.pinned_decisions.map((d: { title: string }) => d.title).sort()).toEqual(['Later decision', 'Use SQLite locally']);
    const before = (await run.http.get(`/projects/${p}/rewind?at=2000-01-01T00:00:00Z`)).body;
    expect(before).toMatchObject({ goal: null, sprint_items: [], pinned_decisions: [], notes: [] });

    for (const [query, detail] of [
      ['', /^at is required/],
      ['?at=yesterday', /^at must be an ISO 8601 time/],
      ['?at=2999-01-01T00:00:00Z', /^at must not be in the future/],
    ] as const) {
      const bad = await run.http.get(`/projects/${p}/rewind${query}`);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(detail);
    }

    const issued = await run.http.post(`/projects/${p}/rewind-token`, { at: t1, ttl_seconds: 600 });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ kind: 'rewind', token: expect.stringMatching(/^brw_/), expires_at: expect.any(String), at: t1 });
    expect(Date.parse(issued.body.expires_at) - Date.now()).toBeGreaterThan(590_000);
    const link = new URL(issued.body.url);
    expect(link.searchParams.get('at')).toBe(t1);
    expect(link.pathname).toBe(`/projects/${p}/rewind`);
    const anonymous = new Http(run.testApp.url);
    const shared = await anonymous.get(`${link.pathname}${link.search}`);
    expect(shared.status).toBe(200);
    expect(shared.body.goal.content).toBe('Goal one');
    expect(shared.body.at).toBe(t1);
    // The link is pinned to its moment: without `at` it shows that moment, another moment is refused.
    const bare = await anonymous.get(`/projects/${p}/rewind?token=${issued.body.token}`);
    expect(bare.status).toBe(200);
    expect(bare.body.goal.content).toBe('Goal one');
    const elsewhen = await anonymous.get(`/projects/${p}/rewind?at=${encodeURIComponent(new Date().toISOString())}&token=${issued.body.token}`);
    expect(elsewhen.status).toBe(403);
    expect(elsewhen.body.detail).toBe(`this rewind link shows the project at ${t1} only`);
    // Read-only: the link is no webhook token either.
    expect((await anonymous.post(`/projects/${p}/events`, { kind: 'step', name: 'x' }, { 'x-webhook-token': issued.body.token })).status).toBe(401);
    // Minted without a moment, it shows the project as it is when minted.
    const nowLink = await run.http.post(`/projects/${p}/rewind-token`, {});
    expect(Date.parse(nowLink.body.at)).toBeLessThanOrEqual(Date.now());
    expect((await anonymous.get(`/projects/${p}/rewind?token=${nowLink.body.token}`)).body.goal.content).toBe('Goal two');
    const future = await run.http.post(`/projects/${p}/rewind-token`, { at: '2999-01-01T00:00:00Z' });
    expect(future.status).toBe(400);
    expect(future.body.detail).toMatch(/^at must not be in the future/);
    const other = await createProject(run.http, 'Rewind other');
    expect((await anonymous.get(`/projects/${other}/rewind?at=${encodeURIComponent(t1)}&token=${issued.body.token}`)).status).toBe(401);
    expect((await anonymous.post(`/projects/${p}/events`, { kind: 'step', name: 'x' }, { authorization: `Bearer ${issued.body.token}` })).status).toBe(401);
    for (const ttl of [5, 'x', 8 * 24 * 3600]) {
      const bad = await run.http.post(`/projects/${p}/rewind-token`, { ttl_seconds: ttl });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/ttl_seconds/);
    }
    const badAt = await run.http.post(`/projects/${p}/rewind-token`, { at: 'yesterday' });
    expect(badAt.status).toBe(400);
    expect(badAt.body.detail).toMatch(/^at must be an ISO 8601 time/);
    expect((await run.http.post(`/projects/${randomUUID()}/rewind-token`, {})).status).toBe(404);
  });

  test('an expired rewind token is refused (self-hosted too: a credential presented is checked)', async () => {
    const p = await createProject(run.http, 'Rewind expiry');
    const token = (await run.http.post(`/projects/${p}/rewind-token`, {})).body.token;
    await inTenantDb(run.testApp, run.token, (m) =>
      m.query(...bindParams(run.testApp.app.get(TenantDb).dialect, 'UPDATE project_tokens SET expires_at = created_at WHERE project_id = $1', [p])),
    );
    const res = await new Http(run.testApp.url).get(`/projects/${p}/rewind?at=${encodeURIComponent(new Date().toISOString())}&token=${token}`);
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe('invalid or expired rewind token for this project');
  });

  test('GET sessions/{id}/tasks/live streams the task log as it grows and ends when the session closes', async () => {
    const p = await createProject(run.http, 'Live');
    const s = await startSession(run.http, p);
    const other = await startSession(run.http, p);
    await run.http.post('/tasks', { project_id: p, session_id: s, description: 'before the stream' });
    const stream = await readEvents(
      `${run.testApp.url}/projects/${p}/sessions/${s}/tasks/live`,
      run.token,
      () => false,
      async () => {
        await sleep(100);
        await run.http.post('/tasks', { project_id: p, session_id: other, description: 'another session' });
        await run.http.post('/tasks', { project_id: p, session_id: s, description: 'while streaming' });
        await (await webhookClient(run, p)).post(`/projects/${p}/events`, { kind: 'step', name: 'review', session_id: s });
        await sleep(100);
        await run.http.post(`/sessions/${s}/close`, {});
      },
    );
    expect(stream.ended).toBe(true);
    expect(stream.events.map((e) => (e.event === 'task' ? e.data.description : e.event))).toEqual(['before the stream', 'while streaming', 'step review', 'session_closed']);

    const missing = await readEvents(`${run.testApp.url}/projects/${p}/sessions/${randomUUID()}/tasks/live`, run.token, () => true);
    expect(missing.status).toBe(404);
    const bad = await readEvents(`${run.testApp.url}/projects/${p}/sessions/nope/tasks/live`, run.token, () => true);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/session_id/);
  });

  test('a client leaving the live stream is let go: the stream stops listening', async () => {
    const p = await createProject(run.http, 'Live leave');
    const s = await startSession(run.http, p);
    const bus = run.testApp.app.get(RealtimeEvents) as unknown as { emitter: EventEmitter };
    const listening = () => bus.emitter.listenerCount('event');
    const before = listening();
    let during = 0;
    const stream = await readEvents(
      `${run.testApp.url}/projects/${p}/sessions/${s}/tasks/live`,
      run.token,
      (events) => events.length >= 1,
      async () => {
        await sleep(50);
        during = listening();
        await run.http.post('/tasks', { project_id: p, session_id: s, description: 'one' });
      },
    );
    expect(stream.ended).toBe(false);
    expect(stream.events.map((e) => e.data.description)).toEqual(['one']);
    expect(during).toBe(before + 1);
    await waitUntil(() => listening() === before, 5000, 'the stream to stop listening');
  });

  test('the MCP tools of the time toolset answer like their routes and refuse bad arguments by name', async () => {
    const p = await createProject(run.http, 'Tools');
    await run.http.post(`/projects/${p}/goal`, { content: 'Tool goal' });
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'time');
    try {
      const logged = await callTool(client, 'record_framework_event', { project_id: p, kind: 'tool_result', name: 'grep', text: '3 matches' });
      expect(logged.value).toMatchObject({ project_id: p, description: 'tool_result grep: 3 matches', status: 'done' });
      const stats = await callTool(client, 'get_project_stats', { project_id: p, days: 2 });
      expect(stats.value.tasks).toMatchObject({ total: 1, by_status: { done: 1 } });
      expect(stats.value.tasks.per_day).toHaveLength(2);
      expect((await callTool(client, 'get_runtime_diagnostics', { project_id: p })).value).toMatchObject({ project_id: p, active_sessions: [] });
      const rewound = await callTool(client, 'rewind_project', { project_id: p, at: new Date().toISOString() });
      expect(rewound.value.goal.content).toBe('Tool goal');
      const bad = await callTool(client, 'rewind_project', { project_id: p, at: 'soon' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/at must be an ISO 8601 time/);
      const badKind = await callTool(client, 'record_framework_event', { project_id: p, kind: 'thought' });
      expect(badKind.isError).toBe(true);
      expect(badKind.text).toMatch(/kind must be one of/);
      expect((await callTool(client, 'get_project_stats', { project_id: randomUUID() })).isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  test('a project with history is deleted with all of it', async () => {
    const p = await createProject(run.http, 'Deleted');
    await run.http.post(`/projects/${p}/goal`, { content: 'Goal' });
    await run.http.post(`/projects/${p}/sprint-items`, { title: 'Something to do', version: 'v1' });
    await run.http.post(`/projects/${p}/notes`, { title: 'A note' });
    await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'A decision', body: '' });
    const gone = await run.http.delete(`/projects/${p}`);
    expect(gone.status).toBeLessThan(300);
    const left = await inTenantDb(run.testApp, run.token, (m) =>
      m.query(...bindParams(run.testApp.app.get(TenantDb).dialect, 'SELECT COUNT(*) AS n FROM state_revisions WHERE project_id = $1', [p])),
    );
    expect(Number(left[0].n)).toBe(0);
    expect((await run.http.get(`/projects/${p}/rewind?at=${encodeURIComponent(new Date().toISOString())}`)).status).toBe(404);
  });
});

describe.each(hostedBackend())('a project over time across tenants on %s', (_name, backend) => {
  let run: RunningBackend;
  let other: TenantClient;

  beforeAll(async () => {
    run = await backend.start(ENV);
    other = await tenantClient(run.testApp, 'tenant-b');
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 on every route, and its tokens open nothing here", async () => {
    const p = await createProject(run.http, 'Mine');
    const s = await startSession(run.http, p);
    const at = encodeURIComponent(new Date().toISOString());
    for (const path of [`/projects/${p}/stats`, `/projects/${p}/runtime_diagnostics`, `/projects/${p}/rewind?at=${at}`, `/projects/${p}/webhook-token`]) {
      expect([path, (await other.http.get(path)).status]).toEqual([path, 404]);
    }
    // POST .../events takes only the project's webhook token: another workspace's credentials are no token at all.
    expect((await other.http.post(`/projects/${p}/events`, { kind: 'step', name: 'x' })).status).toBe(401);
    expect((await other.http.post(`/projects/${p}/rewind-token`, {})).status).toBe(404);
    expect((await readEvents(`${run.testApp.url}/projects/${p}/sessions/${s}/tasks/live`, other.token, () => true)).status).toBe(404);

    const theirs = await createProject(other.http, 'Theirs');
    const webhook = (await run.http.get(`/projects/${p}/webhook-token`)).body.token;
    const rewind = (await run.http.post(`/projects/${p}/rewind-token`, {})).body.token;
    const anonymous = new Http(run.testApp.url);
    expect((await anonymous.post(`/projects/${theirs}/events`, { kind: 'step', name: 'x' }, { authorization: `Bearer ${webhook}` })).status).toBe(401);
    expect((await anonymous.get(`/projects/${theirs}/rewind?at=${at}&token=${rewind}`)).status).toBe(401);
    // A token whose workspace part names the other tenant, with this tenant's secret, is refused too.
    const forged = webhook.replace(/^bwh_[0-9a-f]{32}/, `bwh_${other.tenant_id.replace(/-/g, '')}`);
    expect((await anonymous.post(`/projects/${theirs}/events`, { kind: 'step', name: 'x' }, { authorization: `Bearer ${forged}` })).status).toBe(401);
    expect((await other.http.get(`/projects/${theirs}/tasks`)).body).toEqual([]);
  });

  test('a read-scope API token reads stats and rewind but cannot mint a webhook token', async () => {
    const p = await createProject(run.http, 'Read scope');
    const created = await run.http.post('/auth/tokens', { label: 'wall screen', scope: 'read' });
    expect(created.status).toBe(201);
    const reader = new Http(run.testApp.url, created.body.token);
    expect((await reader.get(`/projects/${p}/stats`)).status).toBe(200);
    expect((await reader.get(`/projects/${p}/rewind?at=${encodeURIComponent(new Date().toISOString())}`)).status).toBe(200);
    const minted = await reader.get(`/projects/${p}/webhook-token`);
    expect(minted.status).toBe(403);
    expect(minted.body.code).toBe('READ_ONLY_TOKEN');
    expect((await reader.post(`/projects/${p}/rewind-token`, {})).status).toBe(403);
    expect((await reader.post(`/projects/${p}/events`, { kind: 'step', name: 'x' })).status).toBe(401);
  });
});
