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

/**
 * The workspace layer is tenant-wide, so each backend gets its own instance
 * (a fresh database) and the tests below read the whole workspace.
 */
describe.each(eachBackend())('workspace layer on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = (name: string) => createProject(run.http, name);
  async function note(title: string, extra: Record<string, unknown> = {}) {
    const res = await run.http.post('/workspace/notes', { title, ...extra });
    expect(res.status).toBe(201);
    await pause();
    return res.body;
  }
  async function decide(title: string, extra: Record<string, unknown> = {}) {
    const res = await run.http.post('/workspace/decisions', { title, ...extra });
    expect(res.status).toBe(201);
    await pause();
    return res.body;
  }
  const titles = (list: { title: string }[]) => list.map((x) => x.title);
  const sectionsOf = (projectId: string) => inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, projectId));

  test('workspace notes: create, list newest first, tag and substring queries, PATCH, DELETE 204 then 404', async () => {
    const a = await note('Coding style', { body: 'Prefer small PRs', tags: ['Style', 'review'] });
    expect(a).toEqual({
      id: expect.any(String),
      title: 'Coding style',
      body: 'Prefer small PRs',
      tags: ['style', 'review'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const b = await note('On-call rota', { body: 'Weekly, handover on Mondays', tags: ['ops'] });
    const list = async (q = '') => titles((await run.http.get(`/workspace/notes${q}`)).body);
    expect(await list()).toEqual(['On-call rota', 'Coding style']);
    expect(await list('?tag=STYLE')).toEqual(['Coding style']);
    expect(await list('?substring=monday')).toEqual(['On-call rota']);
    expect(await list('?substring=PRs&tag=review')).toEqual(['Coding style']);
    expect(await list('?substring=nothing')).toEqual([]);
    expect((await run.http.get('/workspace/notes?query=x')).body.detail).toBe('unknown field query');
    const patched = await run.http.patch(`/workspace/notes/${b.id}`, { body: 'Weekly, handover on Tuesdays' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: b.id, title: 'On-call rota', body: 'Weekly, handover on Tuesdays', tags: ['ops'] });
    expect((await run.http.patch(`/workspace/notes/${b.id}`, {})).status).toBe(400);
    expect((await run.http.patch(`/workspace/notes/${randomUUID()}`, { title: 'x' })).body.code).toBe('WORKSPACE_NOTE_NOT_FOUND');
    const del = await run.http.delete(`/workspace/notes/${a.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await run.http.delete(`/workspace/notes/${a.id}`)).status).toBe(404);
    await run.http.delete(`/workspace/notes/${b.id}`);
  });

  test('moving a workspace note makes it a note of the project, with its title, body and tags, and removes it from the workspace', async () => {
    const p = await newProject('Move target');
    const n = await note('Belongs to one project', { body: 'Only the billing service cares', tags: ['billing'] });
    const missing = await run.http.post(`/workspace/notes/${n.id}/move`, { project_id: randomUUID() });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('PROJECT_NOT_FOUND');
    const moved = await run.http.post(`/workspace/notes/${n.id}/move`, { project_id: p });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ project_id: p, title: 'Belongs to one project', body: 'Only the billing service cares', tags: ['billing'] });
    expect((await run.http.get(`/projects/${p}/notes?tag=billing`)).body.map((x: { id: string }) => x.id)).toEqual([moved.body.id]);
    expect(titles((await run.http.get('/workspace/notes')).body)).not.toContain('Belongs to one project');
    expect((await run.http.post(`/workspace/notes/${n.id}/move`, { project_id: p })).body.code).toBe('WORKSPACE_NOTE_NOT_FOUND');
  });

  test('workspace decisions: a same-title decision supersedes the active one; include_superseded shows the chain; DELETE 204/404', async () => {
    const first = await decide('Default branch', { body: 'main' });
    const same = await run.http.post('/workspace/decisions', { title: 'Default branch', body: 'main' });
    expect(same.body.id).toBe(first.id);
    const second = await decide('  default   BRANCH ', { body: 'trunk' });
    expect(second).toMatchObject({ title: 'default   BRANCH', body: 'trunk', status: 'active', supersedes_id: first.id });
    const other = await decide('Licence', { body: 'Apache-2.0' });
    const renamed = await decide('Licence of new repositories', { body: 'MIT', supersedes: other.id });
    expect(renamed.supersedes_id).toBe(other.id);
    expect(titles((await run.http.get('/workspace/decisions')).body)).toEqual(['Licence of new repositories', 'default   BRANCH']);
    const all = (await run.http.get('/workspace/decisions?include_superseded=true')).body;
    expect(all).toHaveLength(4);
    expect(all.find((d: { id: string }) => d.id === first.id)).toMatchObject({ status: 'superseded', superseded_by_id: second.id });
    const stale = await run.http.post('/workspace/decisions', { title: 'x', supersedes: first.id });
    expect(stale.status).toBe(409);
    expect(stale.body.code).toBe('WORKSPACE_DECISION_NOT_ACTIVE');
    expect((await run.http.post('/workspace/decisions', { title: 'x', supersedes: randomUUID() })).status).toBe(404);
    expect((await run.http.delete(`/workspace/decisions/${renamed.id}`)).status).toBe(204);
    const gone = await run.http.delete(`/workspace/decisions/${renamed.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toContain('workspace decision not found');
    for (const d of (await run.http.get('/workspace/decisions?include_superseded=true')).body) await run.http.delete(`/workspace/decisions/${d.id}`);
  });

  test('workspace sprint items: grouped by group (ungrouped last), status filter, PATCH, complete stamps completed_at', async () => {
    const add = async (body: Record<string, unknown>) => {
      const res = await run.http.post('/workspace/sprint-items', body);
      expect(res.status).toBe(201);
      return res.body;
    };
    const a = await add({ title: 'Rotate the shared keys', group: 'security' });
    const b = await add({ title: 'Adopt the new CI runner', group: 'Infra', human_id: 'ada' });
    const c = await add({ title: 'Write the onboarding guide' });
    const d = await add({ title: 'Pen-test follow-ups', group: 'security', status: 'in_progress' });
    expect(a).toMatchObject({ status: 'todo', item_group: 'security', completed_at: null, notes: null });
    const grouped = (await run.http.get('/workspace/sprint-items')).body;
    expect(grouped.total).toBe(4);
    expect(grouped.groups.map((g: { group: string | null; items: { id: string }[] }) => [g.group, g.items.map((i) => i.id)])).toEqual([
      ['Infra', [b.id]],
      ['security', [a.id, d.id]],
      [null, [c.id]],
    ]);
    expect((await run.http.get('/workspace/sprint-items?status=in_progress')).body).toEqual({
      groups: [{ group: 'security', items: [expect.objectContaining({ id: d.id })] }],
      total: 1,
    });

    const patched = await run.http.patch(`/workspace/sprint-items/${c.id}`, { group: 'docs', notes: 'draft in the wiki' });
    expect(patched.body).toMatchObject({ item_group: 'docs', notes: 'draft in the wiki', title: 'Write the onboarding guide' });
    expect((await run.http.patch(`/workspace/sprint-items/${c.id}`, { group: null })).body.item_group).toBeNull();
    const refused = await run.http.patch(`/workspace/sprint-items/${c.id}`, { status: 'done' });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('complete an item with');

    const done = await run.http.post(`/workspace/sprint-items/${a.id}/complete`, { notes: 'rotated on Friday' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'done', notes: 'rotated on Friday', completed_at: expect.any(String) });
    const again = await run.http.post(`/workspace/sprint-items/${a.id}/complete`);
    expect(again.body.completed_at).toBe(done.body.completed_at);
    expect((await run.http.get('/workspace/sprint-items?status=done')).body.total).toBe(1);
    const reopened = await run.http.patch(`/workspace/sprint-items/${a.id}`, { status: 'todo' });
    expect(reopened.body).toMatchObject({ status: 'todo', completed_at: null });
    expect((await run.http.post(`/workspace/sprint-items/${randomUUID()}/complete`)).body.code).toBe('WORKSPACE_ITEM_NOT_FOUND');
    expect((await run.http.get('/workspace/sprint-items?status=finished')).status).toBe(400);
    for (const item of [a, b, c, d]) expect((await run.http.delete(`/workspace/sprint-items/${item.id}`)).status).toBe(204);
    expect((await run.http.delete(`/workspace/sprint-items/${a.id}`)).status).toBe(404);
  });

  test('workspace settings: a singleton with defaults; PATCH changes only the fields given', async () => {
    const defaults = { name: null, timezone: 'UTC', context_notes_limit: 10, context_decisions_limit: 10 };
    expect((await run.http.get('/workspace/settings')).body).toEqual(defaults);
    expect((await run.http.patch('/workspace/settings', { name: 'Acme engineering' })).body).toEqual({ ...defaults, name: 'Acme engineering' });
    expect((await run.http.patch('/workspace/settings', { timezone: 'Europe/Paris' })).body).toEqual({ ...defaults, name: 'Acme engineering', timezone: 'Europe/Paris' });
    expect((await run.http.patch('/workspace/settings', {})).body).toEqual({ ...defaults, name: 'Acme engineering', timezone: 'Europe/Paris' });
    expect((await run.http.patch('/workspace/settings', { name: null })).body.name).toBeNull();
    const badZone = await run.http.patch('/workspace/settings', { timezone: 'Mars/Olympus' });
    expect(badZone.status).toBe(400);
    expect(badZone.body.detail).toContain('IANA time zone');
    expect((await run.http.patch('/workspace/settings', { context_notes_limit: 51 })).status).toBe(400);
    expect((await run.http.patch('/workspace/settings', { timezone: null })).body.timezone).toBe('Europe/Paris');
    expect((await run.http.get('/workspace/settings')).body).toEqual({ ...defaults, timezone: 'Europe/Paris' });
    await run.http.patch('/workspace/settings', { timezone: 'UTC' });
  });

  test('the "workspace" section heads every project\'s context block: decisions then notes, newest first, within the settings\' limits', async () => {
    const p1 = await newProject('Context one');
    const p2 = await newProject('Context two');
    expect((await sectionsOf(p1)).find((s) => s.key === 'workspace')).toBeUndefined();
    await note('Old note', { body: 'first\nline' });
    await note('New note');
    await decide('Binding rule', { body: 'No force pushes' });
    await run.http.post(`/projects/${p1}/goal`, { content: 'Project goal' });
    const sections = await sectionsOf(p1);
    expect(sections[0]).toEqual({
      key: 'workspace',
      title: 'Workspace',
      order: 10,
      lines: ['- Decision: Binding rule — No force pushes', '- Note: New note', '- Note: Old note — first line'],
    });
    expect(sections.findIndex((s) => s.key === 'goal')).toBeGreaterThan(0);
    expect((await sectionsOf(p2))[0].lines).toEqual(sections[0].lines);
    await run.http.patch('/workspace/settings', { context_notes_limit: 1, context_decisions_limit: 0 });
    expect((await sectionsOf(p2))[0].lines).toEqual(['- Note: New note']);
    await run.http.patch('/workspace/settings', { context_notes_limit: 10, context_decisions_limit: 10 });
    for (const n of (await run.http.get('/workspace/notes')).body) await run.http.delete(`/workspace/notes/${n.id}`);
    for (const d of (await run.http.get('/workspace/decisions?include_superseded=true')).body) await run.http.delete(`/workspace/decisions/${d.id}`);
  });

  test('MCP: add_workspace_note, set_workspace_decision and the list tools reach the same records', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const n = await callTool(client, 'add_workspace_note', { title: 'From a tool', tags: ['mcp'] });
      expect(n.value).toMatchObject({ title: 'From a tool', tags: ['mcp'] });
      expect(titles((await run.http.get('/workspace/notes?tag=mcp')).body)).toEqual(['From a tool']);
      expect((await callTool(client, 'get_workspace_notes', { substring: 'tool' })).value.map((x: { id: string }) => x.id)).toEqual([n.value.id]);
      expect((await callTool(client, 'update_workspace_note', { note_id: n.value.id, title: 'Renamed' })).value.title).toBe('Renamed');
      const d1 = await callTool(client, 'set_workspace_decision', { title: 'Review rule', body: 'two approvals' });
      const d2 = await callTool(client, 'set_workspace_decision', { title: 'review rule', body: 'one approval' });
      expect(d2.value.supersedes_id).toBe(d1.value.id);
      expect((await callTool(client, 'get_workspace_decisions', {})).value.map((x: { id: string }) => x.id)).toEqual([d2.value.id]);
      expect((await callTool(client, 'get_workspace_decisions', { include_superseded: true })).value).toHaveLength(2);
      const item = await callTool(client, 'add_workspace_sprint_item', { title: 'Tool item', group: 'g' });
      expect((await callTool(client, 'update_workspace_sprint_item', { item_id: item.value.id, status: 'in_progress' })).value.status).toBe('in_progress');
      expect((await callTool(client, 'complete_workspace_sprint_item', { item_id: item.value.id })).value.status).toBe('done');
      expect((await callTool(client, 'get_workspace_sprint_items', { status: 'done' })).value.total).toBe(1);
      expect((await callTool(client, 'update_workspace_settings', { context_notes_limit: 3 })).value.context_notes_limit).toBe(3);
      expect((await callTool(client, 'get_workspace_settings')).value.context_notes_limit).toBe(3);
      const p = await newProject('Tool move');
      expect((await callTool(client, 'move_workspace_note', { note_id: n.value.id, project_id: p })).value.project_id).toBe(p);
      const rest = await run.http.delete(`/workspace/notes/${n.value.id}`);
      const tool = await callTool(client, 'delete_workspace_note', { note_id: n.value.id });
      expect(tool.text).toBe(rest.body.detail);
      expect((await callTool(client, 'delete_workspace_decision', { decision_id: d1.value.id })).value).toEqual({ deleted: d1.value.id });
      await run.http.delete(`/workspace/decisions/${d2.value.id}`);
      await run.http.delete(`/workspace/sprint-items/${item.value.id}`);
      await run.http.patch('/workspace/settings', { context_notes_limit: 10 });
    } finally {
      await client.close();
    }
  });

  test('bad input to every workspace route and tool: 4xx with a detail, never 5xx', async () => {
    const n = await note('fuzz target');
    const item = (await run.http.post('/workspace/sprint-items', { title: 'fuzz item' })).body;
    const p = await newProject('Workspace fuzz');
    await fuzzRoute(run.http, { method: 'POST', path: '/workspace/notes', body: { title: 't', body: 'b', tags: ['a'] } });
    await fuzzRoute(run.http, { method: 'GET', path: '/workspace/notes', query: { tag: 'a', substring: 's', limit: '5', offset: '0' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/workspace/notes/${n.id}`, body: { title: 't', body: 'b', tags: ['a'] } });
    await fuzzRoute(run.http, { method: 'POST', path: '/workspace/decisions', body: { title: 't', body: 'b' } });
    await fuzzRoute(run.http, { method: 'GET', path: '/workspace/decisions', query: { include_superseded: 'true' } });
    await fuzzRoute(run.http, { method: 'POST', path: '/workspace/sprint-items', body: { title: 't', group: 'g', status: 'todo', notes: 'n', human_id: 'h' } });
    await fuzzRoute(run.http, { method: 'GET', path: '/workspace/sprint-items', query: { status: 'todo' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/workspace/sprint-items/${item.id}`, body: { title: 't', group: 'g', status: 'todo', notes: 'n', human_id: 'h' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/workspace/sprint-items/${item.id}/complete`, body: { notes: 'n' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: '/workspace/settings', body: { name: 'n', timezone: 'UTC', context_notes_limit: 5, context_decisions_limit: 5 } });
    for (const bad of BAD_SEGMENTS) {
      await fuzzPathIds(run.http, 'PATCH', [`/workspace/notes/${bad}`, `/workspace/sprint-items/${bad}`], { title: 'x' });
      await fuzzPathIds(run.http, 'DELETE', [`/workspace/notes/${bad}`, `/workspace/decisions/${bad}`, `/workspace/sprint-items/${bad}`]);
      await fuzzPathIds(run.http, 'POST', [`/workspace/notes/${bad}/move`], { project_id: p });
      await fuzzPathIds(run.http, 'POST', [`/workspace/sprint-items/${bad}/complete`]);
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await fuzzTool(client, 'add_workspace_note', { title: 't', tags: ['a'] });
      await fuzzTool(client, 'get_workspace_notes', { tag: 'a', substring: 's' });
      await fuzzTool(client, 'move_workspace_note', { note_id: randomUUID(), project_id: p });
      await fuzzTool(client, 'set_workspace_decision', { title: 't', body: 'b' });
      await fuzzTool(client, 'update_workspace_sprint_item', { item_id: item.id, title: 't' });
      await fuzzTool(client, 'update_workspace_settings', { timezone: 'UTC', context_notes_limit: 5 });
    } finally {
      await client.close();
    }
    await run.http.patch('/workspace/settings', { name: null, timezone: 'UTC', context_notes_limit: 10, context_decisions_limit: 10 });
  }, 300_000);
});

describe.each(hostedBackend())('workspace layer across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("each tenant has its own workspace: another tenant's ids answer 404 and its notes never reach our context blocks", async () => {
    const n = (await run.http.post('/workspace/notes', { title: 'Tenant A only' })).body;
    const d = (await run.http.post('/workspace/decisions', { title: 'Tenant A rule' })).body;
    const item = (await run.http.post('/workspace/sprint-items', { title: 'Tenant A item' })).body;
    await run.http.patch('/workspace/settings', { name: 'Tenant A' });
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const theirs = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    expect((await intruder.get('/workspace/notes')).body).toEqual([]);
    expect((await intruder.get('/workspace/decisions?include_superseded=true')).body).toEqual([]);
    expect((await intruder.get('/workspace/sprint-items')).body).toEqual({ groups: [], total: 0 });
    expect((await intruder.get('/workspace/settings')).body.name).toBeNull();
    const statuses = [
      (await intruder.patch(`/workspace/notes/${n.id}`, { title: 'x' })).status,
      (await intruder.delete(`/workspace/notes/${n.id}`)).status,
      (await intruder.post(`/workspace/notes/${n.id}/move`, { project_id: theirs })).status,
      (await intruder.delete(`/workspace/decisions/${d.id}`)).status,
      (await intruder.post('/workspace/decisions', { title: 'x', supersedes: d.id })).status,
      (await intruder.patch(`/workspace/sprint-items/${item.id}`, { title: 'x' })).status,
      (await intruder.post(`/workspace/sprint-items/${item.id}/complete`)).status,
      (await intruder.delete(`/workspace/sprint-items/${item.id}`)).status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    const theirSections = await inTenantDb(run.testApp, other.token, (m) => run.testApp.app.get(ContextSections).collect(m, theirs));
    expect(theirSections.find((s) => s.key === 'workspace')).toBeUndefined();
    expect((await run.http.get('/workspace/notes')).body.map((x: { id: string }) => x.id)).toEqual([n.id]);
    expect((await run.http.get('/workspace/settings')).body.name).toBe('Tenant A');
  });
});
