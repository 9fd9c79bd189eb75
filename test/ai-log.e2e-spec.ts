import { randomBytes, randomUUID } from 'node:crypto';
import { runWithTenant } from '../libs/tenancy';
import { DomainEvents } from '../src/common/events/domain-events';
import { AiLogRecorder, PendingAiLogEvent } from '../src/modules/ai-log/ai-log-recorder.service';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { inTenantDb } from './support/tenant-db';
import { TestApp } from './support/test-app';
import { sleep } from './support/wait';

type Client = Awaited<ReturnType<typeof connectMcp>>;

/** A token of the shape Baton issues: what must never reach the log. */
const fakeToken = () => `sk_service_${randomBytes(32).toString('base64url')}`;

async function inTenant<T>(testApp: TestApp, token: string | undefined, work: () => Promise<T>): Promise<T> {
  const tenant = await testApp.app.get(TenantResolver).resolve(token ? `Bearer ${token}` : undefined);
  return runWithTenant(tenant, work);
}

/** The whole workspace's log through export_ai_log, parsed. */
async function allEvents(client: Client, args: Record<string, unknown> = {}) {
  const res = await callTool(client, 'export_ai_log', { limit: 10_000, ...args });
  expect(res.isError).toBe(false);
  return (res.value.jsonl as string)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe.each(eachBackend())('AI-log capture and reading on %s', (_name, backend) => {
  let run: RunningBackend;
  let client: Client;
  let projectId: string;
  let otherProjectId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    projectId = (await run.http.post('/projects', { name: 'Logged' })).body.id;
    otherProjectId = (await run.http.post('/projects', { name: 'Other' })).body.id;
    client = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await client?.close();
    await run?.stop();
  });

  const register = async (project = projectId, name?: string) => {
    const res = await run.http.post('/sessions/register', { project_id: project, ...(name ? { name } : {}) });
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string };
  };
  const timeline = async (query = '', project = projectId) => {
    const res = await run.http.get(`/projects/${project}/timeline${query}`);
    expect(res.status).toBe(200);
    return res.body as { events: any[]; next_cursor: string | null };
  };

  test('every tool call is recorded with tool, duration, outcome, session and the project of its project_id or its session', async () => {
    const session = await register();
    expect((await callTool(client, 'heartbeat', { session_id: session.id })).isError).toBe(false);
    expect((await callTool(client, 'get_project', { project_id: projectId })).isError).toBe(false);
    const missing = await callTool(client, 'get_project', { project_id: randomUUID() });
    expect(missing.isError).toBe(true);

    const events = (await timeline()).events;
    const heartbeat = events.find((e) => e.tool === 'heartbeat' && e.session_id === session.id);
    expect(heartbeat).toMatchObject({ kind: 'tool_call', project_id: projectId, outcome: 'ok', error_code: null, data: { arguments: { session_id: session.id } } });
    expect(typeof heartbeat.duration_ms).toBe('number');
    expect(heartbeat.duration_ms).toBeGreaterThanOrEqual(0);
    expect(new Date(heartbeat.occurred_at).toISOString()).toBe(heartbeat.occurred_at);
    expect(events.find((e) => e.tool === 'get_project')).toMatchObject({ project_id: projectId, session_id: null, outcome: 'ok' });
    expect(events.find((e) => e.kind === 'session_start' && e.session_id === session.id)).toMatchObject({
      project_id: projectId,
      data: { name: session.name, human_id: 'ada', kind: 'interactive' },
    });

    // A project that does not exist is not this tenant's: the refused call is kept, attributed to no project.
    const all = await allEvents(client);
    const refused = all.find((e) => e.tool === 'get_project' && e.outcome === 'error');
    expect(refused).toMatchObject({ project_id: null, error_code: 'PROJECT_NOT_FOUND', data: { error_detail: expect.stringMatching(/project not found/) } });
    expect(refused.summary).toMatch(/^get_project failed \(PROJECT_NOT_FOUND\) in \d+ ms$/);
  });

  test('a call naming no project and no session is stored with no project and is part of the workspace export', async () => {
    await callTool(client, 'list_projects');
    const all = await allEvents(client, { kind: 'tool_call' });
    const listed = all.filter((e) => e.tool === 'list_projects');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.every((e) => e.project_id === null && e.session_id === null)).toBe(true);
    expect((await timeline()).events.some((e) => e.tool === 'list_projects')).toBe(false);
  });

  test('a call whose project_id is unknown but whose session is known belongs to the session project', async () => {
    const session = await register(otherProjectId);
    await callTool(client, 'claim_file', { file_path: 'a.ts', session_id: session.id, project_id: randomUUID() });
    const events = (await timeline(`?session_id=${session.id}&kind=tool_call`, otherProjectId)).events;
    expect(events).toEqual([expect.objectContaining({ tool: 'claim_file', project_id: otherProjectId, outcome: 'error', error_code: 'INVALID_INPUT' })]);
  });

  test('a token passed in the arguments never appears in the record, whether under a secret name or inside text', async () => {
    const token = fakeToken();
    const session = await register();
    await callTool(client, 'update_session', {
      session_id: session.id,
      state: { note: `deploy with ${token} please`, api_key: 'plain-looking-value-123', nested: { authorization: `Bearer ${token}`, list: [token] } },
    });
    // Refused for its unknown field, still recorded, still redacted.
    const refused = await callTool(client, 'get_project', { project_id: projectId, token });
    expect(refused.structured?.code).toBe('INVALID_INPUT');

    const page = await run.http.get(`/projects/${projectId}/timeline?session_id=${session.id}`);
    const exported = await callTool(client, 'export_ai_log', { project_id: projectId });
    const raw = await inTenantDb(run.testApp, run.token, (m) => m.query('SELECT data, summary FROM ai_log_events'));
    for (const text of [page.text, exported.text, JSON.stringify(raw)]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain(token.slice('sk_service_'.length));
      expect(text).not.toContain('plain-looking-value-123');
    }
    const update = page.body.events.find((e: any) => e.tool === 'update_session');
    expect(update.data.arguments).toEqual({
      session_id: session.id,
      state: { note: 'deploy with [redacted] please', api_key: '[redacted]', nested: { authorization: '[redacted]', list: ['[redacted]'] } },
    });
    const lines = (exported.value.jsonl as string)
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.find((e) => e.tool === 'get_project' && e.outcome === 'error').data.arguments).toEqual({ project_id: projectId, token: '[redacted]' });
  });

  test('arguments with quotes, backslashes, line breaks and text beyond ASCII are stored exactly as the call sent them', async () => {
    const session = await register();
    const note = 'say "hi" \\ C:\\temp\\x\nnext line\ttab é ☃ 𝄞 \u2028 {"not": "json"} \\u0041';
    expect((await callTool(client, 'update_session', { session_id: session.id, state: { note, 'odd "key"\\': 'v' } })).isError).toBe(false);
    const update = (await timeline(`?session_id=${session.id}&kind=tool_call`)).events.find((e) => e.tool === 'update_session');
    expect(update.data.arguments).toEqual({ session_id: session.id, state: { note, 'odd "key"\\': 'v' } });
  });

  test('calls answered together are each recorded once, in one write or several, with their own arguments', async () => {
    const p = (await run.http.post('/projects', { name: `Concurrent ${randomUUID()}` })).body.id;
    const sessions = await Promise.all(Array.from({ length: 5 }, () => register(p)));
    const calls = await Promise.all(sessions.flatMap((s) => [1, 2, 3, 4].map((n) => callTool(client, 'update_session', { session_id: s.id, state: { round: n } }))));
    expect(calls.every((c) => !c.isError)).toBe(true);
    const events = (await timeline('?kind=tool_call&limit=500', p)).events.filter((e) => e.tool === 'update_session');
    expect(events).toHaveLength(20);
    const seen = events.map((e) => `${e.session_id} round ${e.data.arguments.state.round}`).sort();
    expect(seen).toEqual(sessions.flatMap((s) => [1, 2, 3, 4].map((n) => `${s.id} round ${n}`)).sort());
    expect(events.every((e) => e.project_id === p)).toBe(true);
  });

  test('every session start is recorded: register, start-session over REST and start_session over MCP', async () => {
    const registered = await register(projectId, 'by-register');
    const rest = await run.http.post(`/projects/${projectId}/start-session`, { name: 'by-rest' });
    expect(rest.status).toBe(201);
    const mcp = await callTool(client, 'start_session', { project_id: projectId, name: 'by-mcp' });
    expect(mcp.isError).toBe(false);
    const starts = (await timeline('?kind=session_start')).events;
    const ids = [registered.id, rest.body.session_id, mcp.value.session_id];
    for (const id of ids) expect(starts.filter((e) => e.session_id === id)).toHaveLength(1);
    expect(starts.find((e) => e.session_id === mcp.value.session_id)).toMatchObject({ summary: 'session by-mcp started by ada', project_id: projectId });
    // The MCP call itself is a tool call too.
    expect((await timeline('?kind=tool_call')).events.some((e) => e.tool === 'start_session')).toBe(true);
  });

  test('every handoff correction is recorded, from the domain event and from the corrections route, redacted', async () => {
    const session = await register();
    const correctionId = randomUUID();
    const token = fakeToken();
    await inTenant(run.testApp, run.token, () =>
      run.testApp.app
        .get(DomainEvents)
        .emit('handoff.corrected', { project_id: projectId, session_id: session.id, correction_id: correctionId, summary: `rebase first, key ${token}` }),
    );
    const routed = await run.http.post(`/projects/${projectId}/handoff/corrections`, {
      session_id: session.id,
      summary: 'tests were skipped',
      content: 'run the suite before pushing',
    });
    expect(routed.status).toBe(201);
    const corrections = (await timeline(`?kind=handoff_correction&session_id=${session.id}`)).events;
    expect(corrections).toHaveLength(2);
    expect(corrections[0]).toMatchObject({
      kind: 'handoff_correction',
      project_id: projectId,
      summary: 'handoff correction: tests were skipped',
      data: { correction_id: routed.body.id },
    });
    expect(corrections[1]).toMatchObject({ summary: 'handoff correction: rebase first, key [redacted]', data: { correction_id: correctionId } });
  });

  test('the timeline is newest first and pages with a cursor without gaps or repeats; since, until, kind and session filter it', async () => {
    const p = (await run.http.post('/projects', { name: `Paged ${randomUUID()}` })).body.id;
    for (let i = 0; i < 7; i++) await callTool(client, 'get_project', { project_id: p });
    const full = (await timeline('?limit=500', p)).events;
    expect(full).toHaveLength(7);
    const times = full.map((e) => `${e.occurred_at}|${String(e.seq).padStart(12, '0')}`);
    expect(times).toEqual([...times].sort().reverse());

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: any[]; next_cursor: string | null } = await timeline(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`, p);
      expect(page.events.length).toBeLessThanOrEqual(3);
      seen.push(...page.events.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(full.map((e) => e.id));

    const middle = full[3].occurred_at;
    const newer = (await timeline(`?since=${encodeURIComponent(middle)}`, p)).events;
    const older = (await timeline(`?until=${encodeURIComponent(middle)}`, p)).events;
    expect(newer.length + older.length).toBe(7);
    expect(newer.every((e) => e.occurred_at >= middle)).toBe(true);
    expect(older.every((e) => e.occurred_at < middle)).toBe(true);
    expect((await timeline('?kind=session_start', p)).events).toEqual([]);
    expect((await timeline(`?session_id=${randomUUID()}`, p)).events).toEqual([]);
  });

  test('the session timeline groups a project activity by session with counts, tools and events', async () => {
    const p = (await run.http.post('/projects', { name: `Sessions ${randomUUID()}` })).body.id;
    const a = await register(p, 'alpha');
    const b = await register(p, 'beta');
    await callTool(client, 'heartbeat', { session_id: a.id });
    await callTool(client, 'heartbeat', { session_id: a.id });
    await callTool(client, 'claim_file', { file_path: 'x.ts', session_id: a.id });
    await callTool(client, 'claim_file', { file_path: 'x.ts', session_id: b.id }); // refused: alpha holds it
    const res = await run.http.get(`/projects/${p}/session-timeline`);
    expect(res.status).toBe(200);
    const [first, second] = res.body.sessions;
    expect(first).toMatchObject({ session_id: b.id, name: 'beta', human_id: 'ada', status: 'active', event_count: 2, tool_calls: 1, errors: 1, events_truncated: false });
    expect(first.tools).toEqual([{ tool: 'claim_file', calls: 1, errors: 1, total_duration_ms: expect.any(Number) }]);
    expect(second).toMatchObject({ session_id: a.id, name: 'alpha', event_count: 4, tool_calls: 3, errors: 0, handoff_corrections: 0 });
    expect(second.tools.map((t: any) => [t.tool, t.calls])).toEqual([
      ['heartbeat', 2],
      ['claim_file', 1],
    ]);
    expect(second.events.map((e: any) => e.kind)).toEqual(['session_start', 'tool_call', 'tool_call', 'tool_call']);
    expect(new Date(second.started_at).getTime()).toBeLessThanOrEqual(new Date(second.first_event_at).getTime());

    const one = await run.http.get(`/projects/${p}/session-timeline?session_id=${a.id}&limit=1`);
    expect(one.body.sessions.map((s: any) => s.session_id)).toEqual([a.id]);
    const quiet = await register(p, 'quiet');
    const none = await run.http.get(`/projects/${p}/session-timeline?session_id=${quiet.id}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(none.body.sessions).toEqual([expect.objectContaining({ session_id: quiet.id, event_count: 0, events: [] })]);
    expect((await run.http.get(`/projects/${p}/session-timeline?limit=1`)).body.sessions).toHaveLength(1);

    const mcp = await callTool(client, 'get_session_timeline', { project_id: p, session_id: a.id });
    expect(mcp.value.sessions[0]).toMatchObject({ session_id: a.id, event_count: 4 });
    const flat = await callTool(client, 'get_timeline', { project_id: p, limit: 2 });
    expect(flat.value.events).toHaveLength(2);
    expect(flat.value.next_cursor).toEqual(expect.any(String));
  });

  test('export_ai_log gives JSON lines oldest first for a time range, continued by next_cursor', async () => {
    const p = (await run.http.post('/projects', { name: `Export ${randomUUID()}` })).body.id;
    const from = new Date().toISOString();
    for (let i = 0; i < 5; i++) await callTool(client, 'get_project', { project_id: p });
    await sleep(5);
    const to = new Date().toISOString(); // export_ai_log calls are logged too: keep them out of the range
    const first = await callTool(client, 'export_ai_log', { project_id: p, since: from, until: to, limit: 3 });
    expect(first.value).toMatchObject({ format: 'jsonl', count: 3, truncated: true, next_cursor: expect.any(String) });
    const rest = await callTool(client, 'export_ai_log', { project_id: p, since: from, until: to, limit: 3, cursor: first.value.next_cursor });
    expect(rest.value).toMatchObject({ count: 2, truncated: false, next_cursor: null });
    const lines = `${first.value.jsonl}${rest.value.jsonl}`
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(lines.map((l) => l.seq)).toEqual([...lines.map((l) => l.seq)].sort((x, y) => x - y));
    expect(new Set(lines.map((l) => l.id)).size).toBe(5);
    expect(lines.every((l) => l.project_id === p && l.tool === 'get_project')).toBe(true);
    const empty = await callTool(client, 'export_ai_log', { project_id: p, until: from });
    expect(empty.value).toMatchObject({ count: 0, jsonl: '' });
  });

  test('purge_ai_log removes what is older than the date, counts it, and keeps the rest', async () => {
    const p = (await run.http.post('/projects', { name: `Purge ${randomUUID()}` })).body.id;
    for (let i = 0; i < 3; i++) await callTool(client, 'get_project', { project_id: p });
    await sleep(20);
    const cut = new Date().toISOString();
    await sleep(20);
    await callTool(client, 'get_project', { project_id: p });
    const otherBefore = (await timeline('', otherProjectId)).events.length;
    const purged = await callTool(client, 'purge_ai_log', { before: cut, project_id: p });
    expect(purged.value).toEqual({ removed: 3, before: cut, project_id: p });
    // The purge call is itself a tool call of the project, logged after it ran.
    expect((await timeline('', p)).events.map((e) => e.tool)).toEqual(['purge_ai_log', 'get_project']);
    expect((await timeline('', otherProjectId)).events.length).toBe(otherBefore);
    expect((await callTool(client, 'purge_ai_log', { before: cut, project_id: p })).value.removed).toBe(0);

    // Whole workspace: everything older than the cut goes, the purge call itself is logged after it.
    const all = await callTool(client, 'purge_ai_log', { before: new Date().toISOString() });
    expect(all.value.removed).toBeGreaterThan(0);
    const left = await allEvents(client);
    expect(left.every((e) => e.tool === 'purge_ai_log' || e.tool === 'export_ai_log')).toBe(true);
  });

  test('bad input to the timeline routes is a 400 naming the problem, an unknown project a 404', async () => {
    const bad: [string, RegExp][] = [
      ['?limit=0', /limit must not be less than 1/],
      ['?limit=501', /limit must not be greater than 500/],
      ['?limit=ten', /limit must be an integer/],
      ['?since=yesterday', /since must be an ISO 8601 date-time/],
      ['?until=2024-13-40T00:00:00Z', /until must be an ISO 8601 date-time/],
      [`?since=2024-02-01T00:00:00Z&until=2024-01-01T00:00:00Z`, /until must be later than since/],
      ['?kind=everything', /kind must be one of session_start, tool_call, handoff_correction/],
      ['?session_id=abc', /session_id must be a UUID/],
      ['?cursor=not-a-cursor', /cursor is not a cursor this listing gave/],
      ['?colour=red', /unknown field colour/],
      ['?limit=1&limit=2', /limit must be an integer/],
    ];
    for (const [query, detail] of bad) {
      const res = await run.http.get(`/projects/${projectId}/timeline${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.detail).toMatch(detail);
    }
    for (const query of ['?limit=0', '?limit=101', '?session_id=1', '?since=soon', '?kind=tool_call']) {
      const res = await run.http.get(`/projects/${projectId}/session-timeline${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect((await run.http.get('/projects/not-a-uuid/timeline')).body.detail).toBe('project_id must be a UUID');
    expect((await run.http.get(`/projects/${randomUUID()}/timeline`)).status).toBe(404);
    expect((await run.http.get(`/projects/${randomUUID()}/session-timeline`)).status).toBe(404);
    const foreign = await register(otherProjectId);
    const wrongProject = await run.http.get(`/projects/${projectId}/session-timeline?session_id=${foreign.id}`);
    expect(wrongProject.status).toBe(404);
    expect(wrongProject.body).toMatchObject({ code: 'SESSION_NOT_FOUND' });
    expect((await run.http.get(`/projects/${projectId}/session-timeline?session_id=${randomUUID()}`)).status).toBe(404);
  });

  test('bad arguments to the AI-log tools are refused with INVALID_INPUT, never an internal error', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['export_ai_log', { since: 'last week' }, /since must be an ISO 8601 date-time/],
      ['export_ai_log', { limit: 0 }, /limit/],
      ['export_ai_log', { limit: 'ten' }, /limit must be an integer/],
      ['export_ai_log', { project_id: 'p' }, /project_id must be a UUID/],
      ['export_ai_log', { cursor: 'xyz' }, /cursor/],
      ['export_ai_log', { kind: 'all' }, /kind must be one of/],
      ['purge_ai_log', {}, /before is required/],
      ['purge_ai_log', { before: 'now' }, /before must be an ISO 8601 date-time/],
      ['purge_ai_log', { before: new Date(Date.now() + 86_400_000).toISOString() }, /before must not be in the future/],
      ['purge_ai_log', { before: '2020-01-01T00:00:00Z', scope: 'all' }, /unknown field scope/],
      ['get_timeline', { project_id: projectId, limit: -1 }, /limit/],
      ['get_timeline', {}, /project_id is required/],
      ['get_session_timeline', { project_id: projectId, session_id: 7 }, /session_id must be a UUID/],
    ];
    for (const [tool, args, detail] of cases) {
      const res = await callTool(client, tool, args);
      expect({ tool, args, isError: res.isError, code: res.structured?.code }).toEqual({ tool, args, isError: true, code: 'INVALID_INPUT' });
      expect(res.text).toMatch(detail);
    }
    const unknown = await callTool(client, 'export_ai_log', { project_id: randomUUID() });
    expect(unknown.structured?.code).toBe('PROJECT_NOT_FOUND');
  });

  test('a failing write never fails the recorded call, and the event is kept and written by the next flush', async () => {
    const recorder = run.testApp.app.get(AiLogRecorder);
    const p = (await run.http.post('/projects', { name: `Flaky ${randomUUID()}` })).body.id;
    const spy = jest.spyOn(recorder as unknown as { write: () => Promise<void> }, 'write').mockRejectedValueOnce(new Error('disk full'));
    try {
      const call = await callTool(client, 'get_project', { project_id: p });
      // The call's own write failed before it answered: the answer came all the same.
      expect(spy).toHaveBeenCalledTimes(1);
      expect(call.isError).toBe(false);
      expect(call.value.id).toBe(p);
      expect((recorder as unknown as { pendingCount: number }).pendingCount).toBe(1);
      await recorder.flush(); // the kept event is written now
    } finally {
      spy.mockRestore();
    }
    const events = (await timeline('', p)).events;
    expect(events.map((e) => e.tool)).toEqual(['get_project']);
  });

  test('an event the database refuses costs the others of its write nothing: they are stored when their calls answer', async () => {
    const recorder = run.testApp.app.get(AiLogRecorder);
    const internals = recorder as unknown as { write: (events: unknown[]) => Promise<void>; pendingCount: number };
    const writes = jest.spyOn(internals, 'write');
    const probe = `probe_${randomUUID().slice(0, 8)}`;
    const event = (n: number, over: Record<string, unknown> = {}): PendingAiLogEvent =>
      ({
        id: randomUUID(),
        kind: 'tool_call',
        occurredAt: new Date(),
        projectRef: projectId,
        sessionRef: null,
        tool: `${probe}_${n}`,
        outcome: 'ok',
        durationMs: 1,
        materialize: () => ({ summary: `${probe} ${n}`, data: '{}' }),
        ...over,
      }) as PendingAiLogEvent;
    const pendingBefore = internals.pendingCount;
    const droppedBefore = recorder.droppedCount;
    try {
      // Recorded in one turn, so they leave in one write; two of them break a NOT NULL column.
      await inTenant(run.testApp, run.token, () =>
        Promise.all([
          recorder.record(event(1)),
          recorder.record(event(2)),
          recorder.record(event(3, { materialize: () => ({ summary: null, data: '{}' }) })), // its details are refused
          recorder.record(event(4)),
          recorder.record(event(5, { kind: null })), // refused whatever its details
          recorder.record(event(6)),
        ]),
      );
      expect(writes.mock.calls[0][0]).toHaveLength(6);
    } finally {
      writes.mockRestore();
    }
    // No flush: what was stored was stored by the time the recorded calls would have answered.
    const rows: { tool: string; summary: string }[] = await inTenantDb(run.testApp, run.token, (m) =>
      m.query(`SELECT tool, summary FROM ai_log_events WHERE tool LIKE '${probe}%' ORDER BY tool`),
    );
    expect(rows.map((r) => r.tool)).toEqual([1, 2, 3, 4, 6].map((n) => `${probe}_${n}`));
    expect(rows.find((r) => r.tool === `${probe}_3`)?.summary).toBe(`${probe}_3 (details could not be recorded)`);
    // The event no write can store is kept for its retries like any failed write's, then dropped and counted.
    expect(internals.pendingCount).toBe(pendingBefore + 1);
    for (let retry = 0; retry < 4; retry++) await recorder.flush();
    expect(internals.pendingCount).toBe(pendingBefore);
    expect(recorder.droppedCount).toBe(droppedBefore + 1);
  });
});
