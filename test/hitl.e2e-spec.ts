import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { dashboardSocket } from './support/dashboard-socket';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

describe.each(eachBackend())('HITL on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  let session: { id: string; human_id: string };
  const ask = (body: Record<string, unknown>, project = projectId) => run.http.post(`/projects/${project}/hitl`, { session_id: session.id, ...body });

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_POLL_INTERVAL_MS: '200', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MAX_WAIT_SECONDS: '3' });
    projectId = (await run.http.post('/projects', { name: 'HITL' })).body.id;
    session = (await run.http.post('/sessions/register', { project_id: projectId, name: 'asker', human_id: 'grace' })).body;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('create answers 201 pending (urgency normal, assigned to the session human); GET returns it; an unknown id is 404 {detail}', async () => {
    const res = await ask({ question: 'Ship it?', context: 'tests pass' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      project_id: projectId,
      session_id: session.id,
      question: 'Ship it?',
      context: 'tests pass',
      urgency: 'normal',
      status: 'pending',
      answer: null,
      answered_by: null,
      assigned_to: 'grace',
      answered_at: null,
    });
    expect((await run.http.get(`/hitl/${res.body.id}`)).body).toEqual(res.body);
    const missing = await run.http.get(`/hitl/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ detail: expect.stringMatching(/hitl request not found/), code: 'HITL_NOT_FOUND' });
    const urgent = await ask({ question: 'Prod is down', urgency: 'blocking', assigned_to: 'oncall' });
    expect(urgent.body).toMatchObject({ urgency: 'blocking', assigned_to: 'oncall' });
  });

  test('PATCH answers by default, dismiss dismisses; a request that is not pending is refused with 409', async () => {
    const q = (await ask({ question: 'Which DB?' })).body;
    const answered = await run.http.patch(`/hitl/${q.id}`, { answer: 'Postgres', answered_by: 'lin' });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'answered', answer: 'Postgres', answered_by: 'lin' });
    expect(new Date(answered.body.answered_at).getTime()).toBeGreaterThan(0);
    const again = await run.http.patch(`/hitl/${q.id}`, { action: 'dismiss' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'HITL_NOT_PENDING', status: 'answered' });
    const d = (await ask({ question: 'Rename?' })).body;
    const dismissed = await run.http.patch(`/hitl/${d.id}`, { action: 'dismiss' });
    expect(dismissed.body).toMatchObject({ status: 'dismissed', answer: null, answered_by: 'ada' });
  });

  test('lists filter by status (pending by default, all) and limit, across projects and per project', async () => {
    const other = (await run.http.post('/projects', { name: 'HITL other' })).body.id;
    const otherSession = (await run.http.post('/sessions/register', { project_id: other })).body;
    const mine = (await ask({ question: 'mine' })).body;
    const theirs = (await run.http.post(`/projects/${other}/hitl`, { question: 'theirs', session_id: otherSession.id })).body;
    const all = (await run.http.get('/hitl')).body.map((r: { id: string }) => r.id);
    expect(all).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    const perProject = (await run.http.get(`/projects/${other}/hitl`)).body;
    expect(perProject.map((r: { id: string }) => r.id)).toEqual([theirs.id]);
    const pending = (await run.http.get(`/projects/${projectId}/hitl`)).body as { status: string }[];
    expect(pending.every((r) => r.status === 'pending')).toBe(true);
    const answered = (await run.http.get(`/projects/${projectId}/hitl?status=answered`)).body as { status: string }[];
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.every((r) => r.status === 'answered')).toBe(true);
    const everything = (await run.http.get(`/projects/${projectId}/hitl?status=all`)).body as { status: string }[];
    expect(new Set(everything.map((r) => r.status))).toEqual(new Set(['pending', 'answered', 'dismissed']));
    expect((await run.http.get(`/projects/${projectId}/hitl?status=all&limit=2`)).body).toHaveLength(2);
    // Newest first.
    const times = everything.map((r: any) => new Date(r.created_at).getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await run.http.get(`/projects/${randomUUID()}/hitl`)).status).toBe(404);
  });

  test('hitl_auto_answer answers at once with answered_by auto, unless the request requires a human', async () => {
    const auto = (await run.http.post('/projects', { name: 'HITL auto' })).body.id;
    const s = (await run.http.post('/sessions/register', { project_id: auto })).body;
    expect((await run.http.patch(`/projects/${auto}/settings`, { hitl_auto_answer: true })).status).toBe(200);
    const res = await run.http.post(`/projects/${auto}/hitl`, { question: 'Proceed?', session_id: s.id });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'answered', answered_by: 'auto', answer: expect.stringContaining('hitl_auto_answer') });
    expect(res.body.answered_at).not.toBeNull();
    const human = await run.http.post(`/projects/${auto}/hitl`, { question: 'Delete prod?', session_id: s.id, require_human: true });
    expect(human.body.status).toBe('pending');
  });

  test('hitl_auto_answer is what the asking session resolves: a session layer that turns it off gets a human', async () => {
    const projectId = (await run.http.post('/projects', { name: 'HITL per session' })).body.id;
    expect((await run.http.patch(`/projects/${projectId}/settings`, { hitl_auto_answer: true })).status).toBe(200);
    const careful = (await run.http.post('/sessions/register', { project_id: projectId, name: 'careful' })).body;
    const quick = (await run.http.post('/sessions/register', { project_id: projectId, name: 'quick' })).body;
    // Off is tighter: a session may set it without a reason.
    expect((await run.http.send('PUT', `/profile-layers/session/${careful.id}`, { fields: { hitl_auto_answer: false } })).status).toBe(200);
    const asked = await run.http.post(`/projects/${projectId}/hitl`, { question: 'Rename the table?', session_id: careful.id });
    expect(asked.body).toMatchObject({ status: 'pending', answered_by: null });
    const auto = await run.http.post(`/projects/${projectId}/hitl`, { question: 'Rename the column?', session_id: quick.id });
    expect(auto.body).toMatchObject({ status: 'answered', answered_by: 'auto' });
  });

  test('GET /hitl/{id}?wait returns as soon as the answer lands; without an answer it returns pending after the wait', async () => {
    const socket = await dashboardSocket(run.testApp.url, run.token);
    try {
      const q = (await ask({ question: 'Wait for me' })).body;
      await waitUntil(() => socket.frames.find((f) => f.event === 'hitl_created' && f.data.request.id === q.id), 5000, 'hitl_created');
      const waiting = run.http.get(`/hitl/${q.id}?wait=20`);
      await sleep(300);
      const answeredAt = Date.now();
      await run.http.patch(`/hitl/${q.id}`, { answer: 'go' });
      const got = await waiting;
      expect(got.body).toMatchObject({ id: q.id, status: 'answered', answer: 'go' });
      expect(Date.now() - answeredAt).toBeLessThan(2000);
      const frame = await waitUntil(() => socket.frames.find((f) => f.event === 'hitl_answered' && f.data.request.id === q.id), 5000, 'hitl_answered');
      expect(frame.data.request.answer).toBe('go');
      const p = (await ask({ question: 'nobody answers' })).body;
      const started = Date.now();
      expect((await run.http.get(`/hitl/${p.id}?wait=1`)).body.status).toBe('pending');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
      // A wait above the cap (3 s here) is shortened, not refused; a negative or non-numeric one is refused.
      const capped = Date.now();
      const long = await run.http.get(`/hitl/${p.id}?wait=600`);
      expect(long.body.status).toBe('pending');
      expect(Date.now() - capped).toBeGreaterThanOrEqual(2900);
      expect(Date.now() - capped).toBeLessThan(8000);
      expect((await run.http.get(`/hitl/${p.id}?wait=abc`)).status).toBe(400);
      expect((await run.http.get(`/hitl/${p.id}?wait=-1`)).status).toBe(400);
    } finally {
      socket.ws.close();
    }
  });

  test('bad input is a 4xx with a detail', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ question: '' }, 400, /question must not be empty/],
      [{ question: 'x', urgency: 'meh' }, 400, /urgency must be one of normal, high, blocking/],
      [{ question: 'x', session_id: 'nope' }, 400, /session_id must be a UUID/],
      [{ question: 'x', session_id: randomUUID() }, 404, /session not found/],
      [{ question: 'x', extra: 1 }, 400, /unknown field extra/],
      [{ question: 42 }, 400, /question must be a string/],
    ];
    await expectRefused(ask, cases);
    const q = (await ask({ question: 'bad patches' })).body;
    expect((await run.http.patch(`/hitl/${q.id}`, {})).body).toMatchObject({ code: 'HITL_ANSWER_REQUIRED' });
    expect((await run.http.patch(`/hitl/${q.id}`, { action: 'maybe' })).status).toBe(400);
    expect((await run.http.patch(`/hitl/${randomUUID()}`, { answer: 'x' })).status).toBe(404);
    expect((await run.http.patch('/hitl/not-a-uuid', { answer: 'x' })).status).toBe(400);
    expect((await run.http.get('/hitl?status=open')).status).toBe(400);
    expect((await run.http.get('/hitl?limit=0')).status).toBe(400);
    expect((await run.http.get('/hitl?limit=x')).status).toBe(400);
  });

  test('MCP request_hitl, get_hitl_request (with wait), list_hitl_requests, answer_hitl, dismiss_hitl', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    const waiter = await connectMcp(run.testApp.url, run.token);
    try {
      const created = await callTool(client, 'request_hitl', { project_id: projectId, session_id: session.id, question: 'via MCP?', urgency: 'high' });
      expect(created.value).toMatchObject({ status: 'pending', urgency: 'high' });
      const waiting = callTool(waiter, 'get_hitl_request', { request_id: created.value.id, wait: 20 });
      await sleep(300);
      const answered = await callTool(client, 'answer_hitl', { request_id: created.value.id, answer: 'yes' });
      expect(answered.value.status).toBe('answered');
      expect((await waiting).value).toMatchObject({ status: 'answered', answer: 'yes' });
      const listed = await callTool(client, 'list_hitl_requests', { project_id: projectId, status: 'answered' });
      expect(listed.value.map((r: { id: string }) => r.id)).toContain(created.value.id);
      const d = await callTool(client, 'request_hitl', { project_id: projectId, session_id: session.id, question: 'dismiss me' });
      expect((await callTool(client, 'dismiss_hitl', { request_id: d.value.id })).value.status).toBe('dismissed');
      const twice = await callTool(client, 'answer_hitl', { request_id: d.value.id, answer: 'late' });
      expect(twice.isError).toBe(true);
      expect(twice.structured).toMatchObject({ code: 'HITL_NOT_PENDING' });
      const missing = await callTool(client, 'get_hitl_request', { request_id: randomUUID() });
      expect(missing.text).toMatch(/hitl request not found/);
      expect((await callTool(client, 'request_hitl', { project_id: projectId, question: 'no session' })).isError).toBe(true);
    } finally {
      await client.close();
      await waiter.close();
    }
  });
});

describePostgres('HITL between tenants', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test("another tenant's request answers 404 to get, wait and patch, and never shows in lists", async () => {
    const a = (await tenantClient(testApp, 'hitl-a')).http;
    const b = (await tenantClient(testApp, 'hitl-b')).http;
    const pb = (await b.post('/projects', { name: 'B' })).body.id;
    const sb = (await b.post('/sessions/register', { project_id: pb })).body;
    const q = (await b.post(`/projects/${pb}/hitl`, { question: 'secret?', session_id: sb.id })).body;
    expect((await a.get(`/hitl/${q.id}`)).status).toBe(404);
    expect((await a.get(`/hitl/${q.id}?wait=1`)).status).toBe(404);
    expect((await a.patch(`/hitl/${q.id}`, { answer: 'hijack' })).status).toBe(404);
    expect((await a.get(`/projects/${pb}/hitl`)).status).toBe(404);
    expect((await a.get('/hitl?status=all')).body).toEqual([]);
    const pa = (await a.post('/projects', { name: 'A' })).body.id;
    expect((await a.post(`/projects/${pa}/hitl`, { question: 'x', session_id: sb.id })).status).toBe(404);
    expect((await b.get(`/hitl/${q.id}`)).body.status).toBe('pending');
  });
});
