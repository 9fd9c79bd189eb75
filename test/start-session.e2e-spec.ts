import { randomUUID } from 'node:crypto';
import { StartSessionExtras } from '../src/common/extensions/start-session-extras';
import { FileLock } from '../src/modules/sessions/file-lock.entity';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { BAD_IDS, Refusals, WRONG_REQUIRED, WRONG_TYPES } from './support/bad-input';
import { callTool, connectMcp } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())('start_session and session notes on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    projectId = (await run.http.post('/projects', { name: 'Start Here' })).body.id;
    // A field another module adds to start_session answers (the effective profile, for example).
    run.testApp.app.get(StartSessionExtras).register('start_test_extra', async (_m, input) => ({ seen_session: input.sessionId, seen_human: input.humanId }));
  });
  afterAll(async () => {
    await run?.stop();
  });

  const start = async (body: Record<string, unknown> = {}, path = 'start-session', project = projectId) => {
    const res = await run.http.post(`/projects/${project}/${path}`, body);
    expect(res.status).toBe(201);
    return res.body;
  };

  test('POST start-session registers a session and answers session_id, file_warnings, the context block and the extras', async () => {
    const answer = await start({ name: 'first-start' });
    expect(answer.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.session).toMatchObject({ id: answer.session_id, project_id: projectId, name: 'first-start', kind: 'interactive', status: 'active', human_id: 'ada' });
    expect(answer.resumed).toBe(false);
    expect(answer.file_warnings).toEqual([]);
    expect(answer.context_block).toContain('# Baton context: Start Here');
    expect(answer.context_block).toContain('## Active sessions');
    expect(answer.context_block).toContain(`first-start (interactive, ada, session ${answer.session_id})`);
    expect(answer.start_test_extra).toEqual({ seen_session: answer.session_id, seen_human: 'ada' });
    const stored = await run.http.get(`/sessions/${answer.session_id}`);
    expect(stored.body).toMatchObject({ status: 'active', kind: 'interactive' });
  });

  test('two starts without a name get two distinct sessions', async () => {
    const a = await start();
    const b = await start();
    expect(a.session_id).not.toBe(b.session_id);
    expect(a.session.name).not.toBe(b.session.name);
  });

  test('start-worker-session and start_worker_session start sessions of kind worker', async () => {
    const rest = await start({ name: 'executor-1', human_id: 'grace' }, 'start-worker-session');
    expect(rest.session).toMatchObject({ kind: 'worker', name: 'executor-1', human_id: 'grace' });
    expect(rest.context_block).toContain('executor-1 (worker, grace');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const tool = await callTool(client, 'start_worker_session', { project_id: projectId, name: 'executor-2' });
      expect(tool.isError).toBe(false);
      expect(tool.value.session).toMatchObject({ kind: 'worker', name: 'executor-2' });
      expect(tool.value.file_warnings).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test("two sessions: B claims src/a.ts; A's start_session warns naming src/a.ts, B and B's last_seen; after B closes, no warning", async () => {
    const project = (await run.http.post('/projects', { name: 'Locks Shown' })).body.id;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const b = await callTool(client, 'start_session', { project_id: project, name: 'session-b' });
      expect((await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: b.value.session_id })).value.claimed).toBe(true);
      const bLastSeen = (await run.http.get(`/sessions/${b.value.session_id}`)).body.last_seen;

      const a = await callTool(client, 'start_session', { project_id: project, name: 'session-a' });
      expect(a.isError).toBe(false);
      expect(a.value.file_warnings).toHaveLength(1);
      const warning: string = a.value.file_warnings[0];
      expect(warning).toContain('src/a.ts');
      expect(warning).toContain('session-b');
      expect(warning).toContain(b.value.session_id);
      expect(warning).toContain(bLastSeen);

      // B's own start does not warn B about its own lock; the REST door answers the same.
      const again = await run.http.post(`/projects/${project}/start-session`, { name: 'session-c' });
      expect(again.body.file_warnings).toEqual([warning]);

      await run.http.post(`/sessions/${b.value.session_id}/close`);
      const after = await callTool(client, 'start_session', { project_id: project, name: 'session-d' });
      expect(after.value.file_warnings).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test('a lock that expired is not warned about, though its session is still active', async () => {
    const project = (await run.http.post('/projects', { name: 'Locks Expire' })).body.id;
    const b = await start({ name: 'holder' }, 'start-session', project);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'claim_file', { file_path: 'src/a.ts', session_id: b.session_id });
    } finally {
      await client.close();
    }
    expect((await start({}, 'start-session', project)).file_warnings).toHaveLength(1);
    await inTenantDb(run.testApp, run.token, (m) => m.update(FileLock, { session_id: b.session_id }, { expires_at: new Date(Date.now() - 1000) }));
    expect((await start({}, 'start-session', project)).file_warnings).toEqual([]);
    expect((await run.http.get(`/sessions/${b.session_id}`)).body.status).toBe('active');
  });

  test('start-session refuses an unknown project (404), a malformed id, unknown fields and bad names (400)', async () => {
    const unknown = await run.http.post(`/projects/${randomUUID()}/start-session`, {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.detail).toMatch(/project not found/);
    expect((await run.http.post('/projects/nope/start-session', {})).body).toMatchObject({ detail: 'project_id must be a UUID', code: 'INVALID_INPUT' });
    const extra = await run.http.post(`/projects/${projectId}/start-session`, { project: 'x' });
    expect(extra.status).toBe(400);
    expect(extra.body.detail).toMatch(/unknown field project/);
    expect((await run.http.post(`/projects/${projectId}/start-session`, { name: 'x'.repeat(121) })).status).toBe(400);
    expect((await run.http.post(`/projects/${projectId}/start-session`, { handoff_token: 'abc' })).body.detail).toMatch(/handoff_token must be a handoff token/);
  });

  test('session notes: added over REST and MCP, listed newest first with limit and offset', async () => {
    const s = await start({ name: 'note-taker' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const first = await run.http.post(`/sessions/${s.session_id}/notes`, { body: 'first: read the README' });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({ session_id: s.session_id, project_id: projectId, body: 'first: read the README' });
      const second = await callTool(client, 'add_session_note', { session_id: s.session_id, body: 'second:\n- tests pass\n- lint next' });
      expect(second.isError).toBe(false);
      await run.http.post(`/sessions/${s.session_id}/notes`, { body: 'third' });

      const list = await run.http.get(`/sessions/${s.session_id}/notes`);
      expect(list.status).toBe(200);
      expect(list.body.map((n: { body: string }) => n.body)).toEqual(['third', 'second:\n- tests pass\n- lint next', 'first: read the README']);
      const times = list.body.map((n: { created_at: string }) => Date.parse(n.created_at));
      expect(times[0]).toBeGreaterThan(times[1]);
      expect(times[1]).toBeGreaterThan(times[2]);
      expect((await run.http.get(`/sessions/${s.session_id}/notes?limit=1&offset=1`)).body.map((n: { body: string }) => n.body)).toEqual(['second:\n- tests pass\n- lint next']);
      const viaTool = await callTool(client, 'get_session_notes', { session_id: s.session_id, limit: 2 });
      expect(viaTool.value.map((n: { body: string }) => n.body)).toEqual(['third', 'second:\n- tests pass\n- lint next']);
    } finally {
      await client.close();
    }
  });

  test("a closed session's pad is read-only (409); an unknown session is 404; bad notes are 400", async () => {
    const s = await start();
    await run.http.post(`/sessions/${s.session_id}/notes`, { body: 'kept' });
    await run.http.post(`/sessions/${s.session_id}/close`);
    const refused = await run.http.post(`/sessions/${s.session_id}/notes`, { body: 'too late' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SESSION_CLOSED');
    expect((await run.http.get(`/sessions/${s.session_id}/notes`)).body.map((n: { body: string }) => n.body)).toEqual(['kept']);
    expect((await run.http.get(`/sessions/${randomUUID()}/notes`)).status).toBe(404);
    expect((await run.http.post(`/sessions/${randomUUID()}/notes`, { body: 'x' })).status).toBe(404);
    const open = await start();
    expect((await run.http.post(`/sessions/${open.session_id}/notes`, { body: '   \n ' })).body.detail).toMatch(/not blank/);
    expect((await run.http.post(`/sessions/${open.session_id}/notes`, { body: 'x'.repeat(10_001) })).status).toBe(400);
    expect((await run.http.get(`/sessions/${open.session_id}/notes?limit=0`)).status).toBe(400);
    expect((await run.http.get(`/sessions/${open.session_id}/notes?limit=abc`)).body.detail).toMatch(/limit must be an integer/);
  });

  test('bad input to every route and tool of start_session and session notes: 4xx with detail, never 5xx, nothing started', async () => {
    const open = await start({ name: 'fuzz-anchor' });
    const before = (await run.http.get(`/projects/${projectId}/sessions`)).body.length;
    const refusals = new Refusals();
    const bodies: Record<string, unknown>[] = [
      ...WRONG_TYPES.map((v) => ({ name: v })),
      ...WRONG_TYPES.map((v) => ({ human_id: v })),
      ...WRONG_TYPES.map((v) => ({ handoff_token: v })),
      { name: '' },
      { name: 'bell\u0007' },
      { name: 'x'.repeat(5000) },
      { handoff_token: 'ho_' + 'A'.repeat(16) },
      { kind: 'worker' },
      { project_id: projectId },
      { __proto__: { polluted: true }, extra: 1 },
    ];
    for (const path of ['start-session', 'start-worker-session']) {
      for (const body of bodies) refusals.http(await run.http.post(`/projects/${projectId}/${path}`, body), `${path} ${JSON.stringify(body).slice(0, 60)}`);
      for (const raw of ['{', '[]', '"x"', '42', 'null']) {
        refusals.http(await run.http.send('POST', `/projects/${projectId}/${path}`, raw), `${path} raw ${raw}`);
      }
      for (const id of BAD_IDS) refusals.http(await run.http.post(`/projects/${encodeURIComponent(id)}/${path}`, {}), `${path} id ${id}`);
    }
    const noteBodies: unknown[] = [...WRONG_REQUIRED.map((v) => ({ body: v })), {}, { body: '' }, { body: 'ok', pinned: true }, { body: 'nul\u0000' }];
    for (const body of noteBodies) refusals.http(await run.http.post(`/sessions/${open.session_id}/notes`, body), `note ${JSON.stringify(body)}`);
    for (const q of ['limit=-1', 'limit=201', 'limit=1.5', 'offset=-1', 'offset=x', 'limit[]=1', 'sort=asc']) {
      refusals.http(await run.http.get(`/sessions/${open.session_id}/notes?${q}`), `notes ?${q}`);
    }
    for (const id of BAD_IDS) {
      refusals.http(await run.http.get(`/sessions/${encodeURIComponent(id)}/notes`), `GET notes id ${id}`);
      refusals.http(await run.http.post(`/sessions/${encodeURIComponent(id)}/notes`, { body: 'x' }), `POST notes id ${id}`);
    }

    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ...WRONG_REQUIRED.map((v): [string, Record<string, unknown>] => ['start_session', { project_id: v }]),
        ...BAD_IDS.map((id): [string, Record<string, unknown>] => ['start_worker_session', { project_id: id }]),
        ['start_session', {}],
        ['start_session', { project_id: randomUUID() }],
        ['start_session', { project_id: projectId, colour: 'red' }],
        ['start_worker_session', { project_id: projectId, name: 7 }],
        ...WRONG_REQUIRED.map((v): [string, Record<string, unknown>] => ['add_session_note', { session_id: open.session_id, body: v }]),
        ['add_session_note', { session_id: randomUUID(), body: 'x' }],
        ['add_session_note', { body: 'x' }],
        ...WRONG_TYPES.map((v): [string, Record<string, unknown>] => ['get_session_notes', { session_id: open.session_id, limit: v }]),
        ['get_session_notes', { session_id: 'nope' }],
      ];
      for (const [name, args] of calls) {
        const result = await callTool(client, name, args);
        refusals.tool(result, `${name} ${JSON.stringify(args).slice(0, 80)}`);
      }
    } finally {
      await client.close();
    }
    expect(refusals.failures).toEqual([]);
    expect((await run.http.get(`/projects/${projectId}/sessions`)).body.length).toBe(before);
  });
});

describe.each(hostedBackend())('start_session across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project and session ids answer 404 on every route and tool", async () => {
    const other = await tenantClient(run.testApp, 'intruder');
    const intruder = other.http;
    const projectId = (await run.http.post('/projects', { name: 'Private' })).body.id;
    const mine = (await run.http.post(`/projects/${projectId}/start-session`, { name: 'mine' })).body;
    await run.http.post(`/sessions/${mine.session_id}/notes`, { body: 'secret plan' });

    expect((await intruder.post(`/projects/${projectId}/start-session`, {})).status).toBe(404);
    expect((await intruder.post(`/projects/${projectId}/start-worker-session`, {})).status).toBe(404);
    expect((await intruder.get(`/sessions/${mine.session_id}/notes`)).status).toBe(404);
    expect((await intruder.post(`/sessions/${mine.session_id}/notes`, { body: 'x' })).status).toBe(404);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(client, 'start_session', { project_id: projectId })).structured?.code).toBe('PROJECT_NOT_FOUND');
      expect((await callTool(client, 'start_worker_session', { project_id: projectId })).structured?.code).toBe('PROJECT_NOT_FOUND');
      expect((await callTool(client, 'get_session_notes', { session_id: mine.session_id })).structured?.code).toBe('SESSION_NOT_FOUND');
      expect((await callTool(client, 'add_session_note', { session_id: mine.session_id, body: 'x' })).structured?.code).toBe('SESSION_NOT_FOUND');
    } finally {
      await client.close();
    }
    // The owner's data is untouched and the intruder's workspace holds no session.
    expect((await run.http.get(`/sessions/${mine.session_id}/notes`)).body.map((n: { body: string }) => n.body)).toEqual(['secret plan']);
    expect((await run.http.get(`/projects/${projectId}/sessions`)).body.map((s: { id: string }) => s.id)).toEqual([mine.session_id]);
  });
});
