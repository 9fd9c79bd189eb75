import { randomUUID } from 'node:crypto';
import { ContextSections } from '../src/common/extensions/context-sections';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { BAD_SEGMENTS, fuzzPathIds, fuzzRoute, fuzzTool } from './support/route-fuzz';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { sleep } from './support/wait';

const pause = () => sleep(5);

describe.each(eachBackend())('notes, insights and decisions on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = (name: string) => createProject(run.http, name);
  async function pin(p: string, title: string, body = '') {
    const res = await run.http.post(`/projects/${p}/decisions-pinned`, { title, body });
    expect(res.status).toBe(201);
    await pause();
    return res.body;
  }
  const titles = (list: { title: string }[]) => list.map((x) => x.title);

  test('project notes: create, list newest first, query by tag and substring, PATCH, DELETE 204/404', async () => {
    const p = await newProject('Notes');
    const a = await run.http.post(`/projects/${p}/notes`, { title: 'Deploy steps', body: 'Run the 100% safe script', tags: ['Ops', 'deploy', 'ops'] });
    expect(a.status).toBe(201);
    expect(a.body).toEqual({
      id: expect.any(String),
      project_id: p,
      title: 'Deploy steps',
      body: 'Run the 100% safe script',
      tags: ['ops', 'deploy'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    await pause();
    const b = (await run.http.post(`/projects/${p}/notes`, { title: 'Database tuning', body: 'vacuum_cost_limit', tags: ['db', 'ops'] })).body;
    await pause();
    const c = (await run.http.post(`/projects/${p}/notes`, { title: 'No tags here' })).body;
    expect(c).toMatchObject({ body: '', tags: [] });
    const list = async (q = '') => titles((await run.http.get(`/projects/${p}/notes${q}`)).body);
    expect(await list()).toEqual(['No tags here', 'Database tuning', 'Deploy steps']);
    expect(await list('?tag=OPS')).toEqual(['Database tuning', 'Deploy steps']);
    expect(await list('?tag=op')).toEqual([]);
    expect(await list('?query=TUNING')).toEqual(['Database tuning']);
    expect(await list('?query=100%25')).toEqual(['Deploy steps']);
    expect(await list('?query=cost_limit')).toEqual(['Database tuning']);
    expect(await list('?query=_')).toEqual(['Database tuning']);
    expect(await list('?tag=ops&query=deploy')).toEqual(['Deploy steps']);
    expect(await list('?limit=1&offset=1')).toEqual(['Database tuning']);

    const patched = await run.http.patch(`/projects/${p}/notes/${b.id}`, { tags: ['db'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: 'Database tuning', body: 'vacuum_cost_limit', tags: ['db'] });
    expect(await list('?tag=ops')).toEqual(['Deploy steps']);
    expect((await run.http.patch(`/projects/${p}/notes/${b.id}`, {})).status).toBe(400);
    // null is "not given": alone it changes nothing, so it is refused like an empty PATCH.
    expect((await run.http.patch(`/projects/${p}/notes/${b.id}`, { title: null })).body.detail).toBe('give title, body and/or tags to change');
    expect((await run.http.patch(`/projects/${p}/notes/${b.id}`, { title: null, body: 'vacuum_cost_limit' })).body.title).toBe('Database tuning');
    expect((await run.http.post(`/projects/${p}/notes`, { title: 'x', tags: ['has space'] })).status).toBe(400);

    const other = await newProject('Other notes');
    expect((await run.http.patch(`/projects/${other}/notes/${a.body.id}`, { title: 'stolen' })).status).toBe(404);
    expect((await run.http.delete(`/projects/${other}/notes/${a.body.id}`)).status).toBe(404);
    const del = await run.http.delete(`/projects/${p}/notes/${a.body.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const again = await run.http.delete(`/projects/${p}/notes/${a.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'NOTE_NOT_FOUND', detail: expect.stringContaining('note not found') });
  });

  test('insights: horizon permanent, year or quarter (default quarter), filtered by horizon', async () => {
    const p = await newProject('Insights');
    const q = await run.http.post(`/projects/${p}/insights`, { title: 'Users batch their work on Mondays' });
    expect(q.status).toBe(201);
    expect(q.body).toMatchObject({ title: 'Users batch their work on Mondays', horizon: 'quarter', body: '' });
    await pause();
    await run.http.post(`/projects/${p}/insights`, { title: 'Latency matters more than features', body: 'measured twice', horizon: 'permanent' });
    expect(titles((await run.http.get(`/projects/${p}/insights`)).body)).toEqual(['Latency matters more than features', 'Users batch their work on Mondays']);
    expect(titles((await run.http.get(`/projects/${p}/insights?horizon=permanent`)).body)).toEqual(['Latency matters more than features']);
    expect((await run.http.get(`/projects/${p}/insights?horizon=decade`)).status).toBe(400);
    expect((await run.http.post(`/projects/${p}/insights`, { title: 'x', horizon: 'week' })).body.detail).toBe('horizon must be one of permanent, year, quarter');
  });

  test('decision log and devlog: append-only, newest first; sessions must belong to the project', async () => {
    const p = await newProject('Logs');
    const s = (await run.http.post('/sessions/register', { project_id: p })).body;
    const d = await run.http.post(`/projects/${p}/decisions`, { title: 'Use Postgres', body: 'Because of JSON and FTS', human_id: 'ada', session_id: s.id });
    expect(d.status).toBe(201);
    expect(d.body).toMatchObject({ title: 'Use Postgres', body: 'Because of JSON and FTS', human_id: 'ada', session_id: s.id });
    await pause();
    await run.http.post(`/projects/${p}/decisions`, { title: 'Keep SQLite for self-hosting' });
    expect(titles((await run.http.get(`/projects/${p}/decisions`)).body)).toEqual(['Keep SQLite for self-hosting', 'Use Postgres']);
    expect((await run.http.post(`/projects/${p}/decisions`, { title: 'x', session_id: randomUUID() })).status).toBe(404);
    const foreign = (await run.http.post('/sessions/register', { project_id: await newProject('Foreign') })).body;
    expect((await run.http.post(`/projects/${p}/decisions`, { title: 'x', session_id: foreign.id })).body.code).toBe('SESSION_NOT_IN_PROJECT');

    const e = await run.http.post(`/projects/${p}/devlog`, { entry: 'Migrated the billing tables', session_id: s.id });
    expect(e.status).toBe(201);
    expect(e.body).toMatchObject({ entry: 'Migrated the billing tables', session_id: s.id, human_id: null });
    await pause();
    await run.http.post(`/projects/${p}/devlog`, { entry: 'Fixed the flaky test', human_id: 'grace' });
    expect((await run.http.get(`/projects/${p}/devlog`)).body.map((x: { entry: string }) => x.entry)).toEqual(['Fixed the flaky test', 'Migrated the billing tables']);
    expect((await run.http.post(`/projects/${p}/devlog`, { entry: '  \n ' })).body.detail).toBe('entry must not be blank');
  });

  test('pinned decisions: supersede with new_title/new_body keeps the chain; include_superseded=true returns the history', async () => {
    const p = await newProject('Pinned');
    const first = await pin(p, 'REST paths are plural', 'As in /projects');
    const other = await pin(p, 'Timestamps in UTC');
    const sup = await run.http.patch(`/projects/${p}/decisions-pinned/${first.id}`, { new_body: 'As in /projects and /tasks' });
    expect(sup.status).toBe(200);
    expect(sup.body).toMatchObject({ title: 'REST paths are plural', body: 'As in /projects and /tasks', status: 'active', supersedes_id: first.id, superseded_by_id: null });
    await pause();
    const sup2 = await run.http.patch(`/projects/${p}/decisions-pinned/${sup.body.id}`, { new_title: 'REST paths are plural nouns', new_body: 'Always' });
    expect(sup2.body).toMatchObject({ supersedes_id: sup.body.id, title: 'REST paths are plural nouns' });

    expect(titles((await run.http.get(`/projects/${p}/decisions-pinned`)).body)).toEqual(['REST paths are plural nouns', 'Timestamps in UTC']);
    const history = (await run.http.get(`/projects/${p}/decisions-pinned?include_superseded=true`)).body;
    expect(history).toHaveLength(4);
    const byId = new Map(history.map((d: { id: string }) => [d.id, d]));
    expect(byId.get(first.id)).toMatchObject({ status: 'superseded', superseded_by_id: sup.body.id });
    expect(byId.get(sup.body.id)).toMatchObject({ status: 'superseded', supersedes_id: first.id, superseded_by_id: sup2.body.id });
    expect(byId.get(other.id)).toMatchObject({ status: 'active' });
    expect((await run.http.get(`/projects/${p}/decisions-pinned?include_superseded=false`)).body).toHaveLength(2);
    expect((await run.http.get(`/projects/${p}/decisions-pinned?include_superseded=yes`)).status).toBe(400);

    const stale = await run.http.patch(`/projects/${p}/decisions-pinned/${first.id}`, { new_title: 'again' });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ code: 'DECISION_NOT_ACTIVE', status: 'superseded' });
    const edited = await run.http.patch(`/projects/${p}/decisions-pinned/${other.id}`, { body: 'Stored and sent as ISO 8601' });
    expect(edited.body).toMatchObject({ id: other.id, title: 'Timestamps in UTC', body: 'Stored and sent as ISO 8601', status: 'active' });
    const mixed = await run.http.patch(`/projects/${p}/decisions-pinned/${other.id}`, { title: 'x', new_title: 'y' });
    expect(mixed.status).toBe(400);
    expect(mixed.body.detail).toBe('either edit (title, body, status) or supersede (new_title, new_body), not both');
    expect((await run.http.patch(`/projects/${p}/decisions-pinned/${other.id}`, {})).status).toBe(400);
    expect((await run.http.patch(`/projects/${p}/decisions-pinned/${other.id}`, { status: 'superseded' })).status).toBe(400);

    expect((await run.http.delete(`/projects/${p}/decisions-pinned/${other.id}`)).status).toBe(204);
    expect((await run.http.delete(`/projects/${p}/decisions-pinned/${other.id}`)).status).toBe(404);
    expect((await run.http.patch(`/projects/${p}/decisions-pinned/${randomUUID()}`, { title: 'x' })).body.code).toBe('DECISION_NOT_FOUND');
  });

  test('max_pinned_decisions (default 20): one more is refused with the limit and the oldest; superseding and archiving make room', async () => {
    const p = await newProject('Limit');
    const pinned = [];
    for (let i = 1; i <= 20; i++) pinned.push(await pin(p, `Decision ${i}`));
    const refused = await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Decision 21' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'PINNED_LIMIT_REACHED', max_pinned_decisions: 20, oldest_active_id: pinned[0].id });
    expect(refused.body.detail).toContain('archive-oldest');
    expect((await run.http.patch(`/projects/${p}/decisions-pinned/${pinned[5].id}`, { new_title: 'Decision 6, revised' })).status).toBe(200);
    const archived = await run.http.post(`/projects/${p}/decisions-pinned/archive-oldest`);
    expect(archived.status).toBe(200);
    expect(archived.body.archived).toEqual([expect.objectContaining({ id: pinned[0].id, status: 'archived', archived_at: expect.any(String) })]);
    expect((await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Decision 21' })).status).toBe(201);
    const reactivate = await run.http.patch(`/projects/${p}/decisions-pinned/${pinned[0].id}`, { status: 'active' });
    expect(reactivate.body.code).toBe('PINNED_LIMIT_REACHED');
    const two = await run.http.post(`/projects/${p}/decisions-pinned/archive-oldest`, { count: 2 });
    expect(two.body.archived.map((d: { id: string }) => d.id)).toEqual([pinned[1].id, pinned[2].id]);
    expect((await run.http.patch(`/projects/${p}/decisions-pinned/${pinned[0].id}`, { status: 'active' })).body).toMatchObject({ status: 'active', archived_at: null });
    expect((await run.http.get(`/projects/${p}/decisions-pinned`)).body).toHaveLength(19);
  });

  test('a lower max_pinned_decisions setting holds even against concurrent pins', async () => {
    const p = await newProject('Concurrent pins');
    expect((await run.http.patch(`/projects/${p}/settings`, { max_pinned_decisions: 5 })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => run.http.post(`/projects/${p}/decisions-pinned`, { title: `Racing decision ${i}` })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'PINNED_LIMIT_REACHED')).toBe(true);
    expect((await run.http.get(`/projects/${p}/decisions-pinned`)).body).toHaveLength(5);
  });

  test('replace-all swaps the active set atomically in the given order; too many or a bad one changes nothing', async () => {
    const p = await newProject('Replace');
    const old = await pin(p, 'Old A');
    await pin(p, 'Old B');
    const replaced = await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, {
      decisions: [{ title: 'New first', body: 'top' }, { title: 'New second' }, { title: 'New third' }],
    });
    expect(replaced.status).toBe(200);
    expect(titles(replaced.body)).toEqual(['New first', 'New second', 'New third']);
    expect(titles((await run.http.get(`/projects/${p}/decisions-pinned`)).body)).toEqual(['New first', 'New second', 'New third']);
    const history = (await run.http.get(`/projects/${p}/decisions-pinned?include_superseded=true`)).body;
    expect(history.find((d: { id: string }) => d.id === old.id)).toMatchObject({ status: 'archived' });

    await run.http.patch(`/projects/${p}/settings`, { max_pinned_decisions: 3 });
    const tooMany = await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: [{ title: '1' }, { title: '2' }, { title: '3' }, { title: '4' }] });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('PINNED_LIMIT_REACHED');
    const badOne = await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: [{ title: 'fine' }, { title: '' }] });
    expect(badOne.status).toBe(400);
    expect(badOne.body.detail).toMatch(/decisions\.1\.title must not be empty/);
    expect(titles((await run.http.get(`/projects/${p}/decisions-pinned`)).body)).toEqual(['New first', 'New second', 'New third']);
    expect((await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: [] })).body).toEqual([]);
    expect((await run.http.get(`/projects/${p}/decisions-pinned`)).body).toEqual([]);
    expect((await run.http.post(`/projects/${p}/decisions-pinned/archive-oldest`)).body).toEqual({ archived: [] });
  });

  test('the "decisions" context section: the last 5 active pinned decisions, newest first', async () => {
    const p = await newProject('Decision section');
    const first = await pin(p, 'First', 'the oldest');
    for (let i = 2; i <= 7; i++) await pin(p, `Decision ${i}`);
    await run.http.patch(`/projects/${p}/decisions-pinned/${first.id}`, { new_body: 'the oldest, revised' });
    const sections = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, p));
    expect(sections.find((s) => s.key === 'decisions')).toEqual({
      key: 'decisions',
      title: 'Pinned decisions',
      order: 50,
      lines: ['- First: the oldest, revised', '- Decision 7', '- Decision 6', '- Decision 5', '- Decision 4'],
    });
  });

  test('MCP tools act on the same records, with the same detail on refusals', async () => {
    const p = await newProject('Note tools');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const note = await callTool(client, 'add_note', { project_id: p, title: 'Tool note', tags: ['mcp'] });
      expect((await run.http.get(`/projects/${p}/notes?tag=mcp`)).body.map((n: { id: string }) => n.id)).toEqual([note.value.id]);
      expect((await callTool(client, 'get_notes', { project_id: p, query: 'tool' })).value).toHaveLength(1);
      expect((await callTool(client, 'update_note', { project_id: p, note_id: note.value.id, body: 'changed' })).value.body).toBe('changed');
      expect((await callTool(client, 'delete_note', { project_id: p, note_id: note.value.id })).value).toEqual({ deleted: note.value.id });
      const rest = await run.http.delete(`/projects/${p}/notes/${note.value.id}`);
      const tool = await callTool(client, 'delete_note', { project_id: p, note_id: note.value.id });
      expect(tool.text).toBe(rest.body.detail);
      expect((await callTool(client, 'add_insight', { project_id: p, title: 'i', horizon: 'year' })).value.horizon).toBe('year');
      expect((await callTool(client, 'get_insights', { project_id: p })).value).toHaveLength(1);
      expect((await callTool(client, 'log_decision', { project_id: p, title: 'd' })).value.title).toBe('d');
      expect((await callTool(client, 'get_decision_log', { project_id: p })).value).toHaveLength(1);
      expect((await callTool(client, 'add_devlog_entry', { project_id: p, entry: 'e' })).value.entry).toBe('e');
      expect((await callTool(client, 'get_devlog', { project_id: p })).value).toHaveLength(1);
      const pinned = await callTool(client, 'pin_decision', { project_id: p, title: 'Pinned by a tool' });
      const sup = await callTool(client, 'update_pinned_decision', { project_id: p, decision_id: pinned.value.id, new_title: 'Pinned, revised' });
      expect(sup.value.supersedes_id).toBe(pinned.value.id);
      expect((await callTool(client, 'get_pinned_decisions', { project_id: p, include_superseded: true })).value).toHaveLength(2);
      expect((await callTool(client, 'archive_oldest_decisions', { project_id: p })).value.archived[0].id).toBe(sup.value.id);
      expect((await callTool(client, 'replace_pinned_decisions', { project_id: p, decisions: [{ title: 'Only one' }] })).value).toHaveLength(1);
      const gone = await callTool(client, 'delete_pinned_decision', { project_id: p, decision_id: randomUUID() });
      expect(gone.structured?.code).toBe('DECISION_NOT_FOUND');
    } finally {
      await client.close();
    }
  });

  test('bad input to every notes and decisions route and tool: 4xx with a detail, never 5xx', async () => {
    const p = await newProject('Notes fuzz');
    const note = (await run.http.post(`/projects/${p}/notes`, { title: 'target' })).body;
    const decision = (await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'target' })).body;
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/notes`, body: { title: 't', body: 'b', tags: ['a'] } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${p}/notes`, query: { tag: 'a', query: 'q', limit: '5', offset: '0' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/notes/${note.id}`, body: { title: 't', body: 'b', tags: ['a'] } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/insights`, body: { title: 't', body: 'b', horizon: 'year' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${p}/insights`, query: { horizon: 'year', limit: '5' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/decisions`, body: { title: 't', body: 'b', human_id: 'h' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/devlog`, body: { entry: 'e', human_id: 'h' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${p}/decisions-pinned`, query: { include_superseded: 'true' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/decisions-pinned/${decision.id}`, body: { title: 't', body: 'b' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/decisions-pinned/archive-oldest`, body: { count: 1 } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/decisions-pinned/replace-all`, body: { decisions: [{ title: 'r' }] } });
    expect((await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: ['x', 1, null] })).status).toBe(400);
    expect((await run.http.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: [{ title: 'r', extra: 1 }] })).status).toBe(400);
    for (const bad of BAD_SEGMENTS) {
      await fuzzPathIds(run.http, 'GET', [
        `/projects/${bad}/notes`,
        `/projects/${bad}/insights`,
        `/projects/${bad}/decisions`,
        `/projects/${bad}/devlog`,
        `/projects/${bad}/decisions-pinned`,
      ]);
      await fuzzPathIds(run.http, 'PATCH', [`/projects/${p}/notes/${bad}`, `/projects/${p}/decisions-pinned/${bad}`], { title: 'x' });
      await fuzzPathIds(run.http, 'DELETE', [`/projects/${p}/notes/${bad}`, `/projects/${p}/decisions-pinned/${bad}`]);
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await fuzzTool(client, 'add_note', { project_id: p, title: 't', tags: ['a'] });
      await fuzzTool(client, 'update_note', { project_id: p, note_id: note.id, body: 'b' });
      await fuzzTool(client, 'get_notes', { project_id: p, tag: 'a', query: 'q' });
      await fuzzTool(client, 'add_insight', { project_id: p, title: 't', horizon: 'year' });
      await fuzzTool(client, 'log_decision', { project_id: p, title: 't' });
      await fuzzTool(client, 'add_devlog_entry', { project_id: p, entry: 'e' });
      await fuzzTool(client, 'update_pinned_decision', { project_id: p, decision_id: decision.id, body: 'b' });
      await fuzzTool(client, 'replace_pinned_decisions', { project_id: p, decisions: [{ title: 'r' }] });
      await fuzzTool(client, 'archive_oldest_decisions', { project_id: p, count: 1 });
    } finally {
      await client.close();
    }
  }, 300_000);
});

describe.each(hostedBackend())('notes across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project, note and decision ids answer 404 everywhere; nothing of theirs changes", async () => {
    const p = (await run.http.post('/projects', { name: 'Owner' })).body.id;
    const note = (await run.http.post(`/projects/${p}/notes`, { title: 'Secret note' })).body;
    const decision = (await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Secret decision' })).body;
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const theirs = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    const statuses = [
      (await intruder.get(`/projects/${p}/notes`)).status,
      (await intruder.post(`/projects/${p}/notes`, { title: 'x' })).status,
      (await intruder.patch(`/projects/${p}/notes/${note.id}`, { title: 'x' })).status,
      (await intruder.patch(`/projects/${theirs}/notes/${note.id}`, { title: 'x' })).status,
      (await intruder.delete(`/projects/${theirs}/notes/${note.id}`)).status,
      (await intruder.get(`/projects/${p}/insights`)).status,
      (await intruder.post(`/projects/${p}/insights`, { title: 'x' })).status,
      (await intruder.post(`/projects/${p}/decisions`, { title: 'x' })).status,
      (await intruder.get(`/projects/${p}/decisions`)).status,
      (await intruder.post(`/projects/${p}/devlog`, { entry: 'x' })).status,
      (await intruder.get(`/projects/${p}/decisions-pinned`)).status,
      (await intruder.post(`/projects/${p}/decisions-pinned`, { title: 'x' })).status,
      (await intruder.patch(`/projects/${theirs}/decisions-pinned/${decision.id}`, { new_title: 'x' })).status,
      (await intruder.delete(`/projects/${theirs}/decisions-pinned/${decision.id}`)).status,
      (await intruder.post(`/projects/${p}/decisions-pinned/archive-oldest`)).status,
      (await intruder.post(`/projects/${p}/decisions-pinned/replace-all`, { decisions: [] })).status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    expect((await run.http.get(`/projects/${p}/notes`)).body.map((n: { title: string }) => n.title)).toEqual(['Secret note']);
    expect((await run.http.get(`/projects/${p}/decisions-pinned`)).body).toEqual([expect.objectContaining({ id: decision.id, status: 'active' })]);
  });
});
