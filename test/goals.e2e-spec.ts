import { randomUUID } from 'node:crypto';
import { ContextSections } from '../src/common/extensions/context-sections';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { BAD_SEGMENTS, fuzzPathIds, fuzzRoute, fuzzTool } from './support/route-fuzz';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

const block = (name: string | null, text: string) => `<!-- AUTO BLOCK${name ? `: ${name}` : ''} -->\n${text}\n<!-- END AUTO BLOCK -->`;

describe.each(eachBackend())('goals on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = (name: string) => createProject(run.http, name);
  async function setGoal(projectId: string, body: Record<string, unknown>) {
    const res = await run.http.post(`/projects/${projectId}/goal`, body);
    expect(res.status).toBe(200);
    return res.body;
  }

  test('three writes and one minor write: version 3, a history of 3 newest first, AUTO BLOCKS stripped', async () => {
    const p = await newProject('Versions');
    expect((await setGoal(p, { content: 'Ship v1' })).version).toBe(1);
    expect((await setGoal(p, { content: `Ship v1 with login\n\n${block('status', '3 of 5 done')}` })).version).toBe(2);
    expect((await setGoal(p, { content: `Ship v1 with login and billing\n\n${block('status', '4 of 5 done')}`, sprint: 'Sprint 7' })).version).toBe(3);
    const minor = await setGoal(p, { content: block('status', '5 of 5 done'), minor: true });
    expect(minor.version).toBe(3);
    // The block is replaced where it stands, not appended: one status block, with the new text.
    expect(minor.content).toBe(`Ship v1 with login and billing\n\n${block('status', '5 of 5 done')}`);

    const goal = await run.http.get(`/projects/${p}/goal`);
    expect(goal.status).toBe(200);
    expect(goal.body).toMatchObject({ project_id: p, version: 3, sprint: 'Sprint 7', content: minor.content, mode: 'manual' });

    const history = await run.http.get(`/projects/${p}/goal-history`);
    expect(history.status).toBe(200);
    expect(history.body).toHaveLength(3);
    expect(history.body.map((h: { version: number }) => h.version)).toEqual([3, 2, 1]);
    expect(history.body.map((h: { content: string }) => h.content)).toEqual(['Ship v1 with login and billing', 'Ship v1 with login', 'Ship v1']);
    expect(JSON.stringify(history.body)).not.toContain('AUTO BLOCK');
    expect(Object.keys(history.body[0]).sort()).toEqual(['content', 'created_at', 'north_star', 'sprint', 'version']);
    expect(history.body[0].sprint).toBe('Sprint 7');
    expect(history.body[2].sprint).toBe('');
  });

  test('a minor write of old content plus a fresh block never duplicates the block; new names are added at the end', async () => {
    const p = await newProject('Blocks');
    const first = await setGoal(p, { content: `Intro\n\n${block('status', 'old')}\n\nOutro` });
    const appended = await setGoal(p, { content: `${first.content}\n\n${block('status', 'new')}`, minor: true });
    expect(appended.version).toBe(1);
    expect(appended.content).toBe(`Intro\n\n${block('status', 'new')}\n\nOutro`);
    const added = await setGoal(p, { content: block(null, 'unnamed summary'), minor: true });
    expect(added.content).toBe(`Intro\n\n${block('status', 'new')}\n\nOutro\n\n${block(null, 'unnamed summary')}`);
    const again = await setGoal(p, { content: `<!-- auto block -->\nsecond summary\n<!-- end auto block -->`, minor: true });
    expect(again.content.match(/AUTO BLOCK/gi)).toHaveLength(4);
    expect(again.content).toContain('second summary');
    expect(again.content).not.toContain('unnamed summary');
    const history = (await run.http.get(`/projects/${p}/goal-history`)).body;
    expect(history).toEqual([expect.objectContaining({ version: 1, content: 'Intro\n\nOutro' })]);
  });

  test('before any write the goal is empty at version 0; a first minor write makes version 1', async () => {
    const p = await newProject('Empty goal');
    const empty = await run.http.get(`/projects/${p}/goal`);
    expect(empty.body).toEqual({
      id: null,
      project_id: p,
      content: '',
      north_star: '',
      north_star_by: null,
      sprint: '',
      version: 0,
      mode: 'manual',
      created_at: null,
      updated_at: null,
      recent_tasks: [],
    });
    expect((await run.http.get(`/projects/${p}/goal-history`)).body).toEqual([]);
    const minor = await setGoal(p, { content: block('status', 'bootstrapped'), minor: true });
    expect(minor).toMatchObject({ version: 1, id: expect.any(String), created_at: expect.any(String) });
    expect((await run.http.get(`/projects/${p}/goal-history`)).body).toEqual([expect.objectContaining({ version: 1, content: '' })]);
  });

  test('north-star and sprint routes each make a new version; history keeps them; human_id is recorded', async () => {
    const p = await newProject('North star');
    await setGoal(p, { content: 'Build the thing' });
    const star = await run.http.post(`/projects/${p}/goal/north-star`, { north_star: 'Every team ships daily', human_id: 'ada' });
    expect(star.status).toBe(200);
    expect(star.body).toMatchObject({ version: 2, north_star: 'Every team ships daily', north_star_by: 'ada', content: 'Build the thing' });
    const sprint = await run.http.post(`/projects/${p}/goal/sprint`, { sprint: '  Sprint 12  ' });
    expect(sprint.body).toMatchObject({ version: 3, sprint: 'Sprint 12', north_star: 'Every team ships daily' });
    const history = (await run.http.get(`/projects/${p}/goal-history?limit=2`)).body;
    expect(history.map((h: { version: number; sprint: string; north_star: string }) => [h.version, h.sprint, h.north_star])).toEqual([
      [3, 'Sprint 12', 'Every team ships daily'],
      [2, '', 'Every team ships daily'],
    ]);
    expect((await run.http.get(`/projects/${p}/goal-history?offset=2`)).body.map((h: { version: number }) => h.version)).toEqual([1]);
    expect((await run.http.post(`/projects/${p}/goal/sprint`, { sprint: 'two\nlines' })).status).toBe(400);
    expect((await run.http.post(`/projects/${p}/goal/north-star`, {})).body.detail).toMatch(/north_star is required/);
  });

  test('goal mode is manual by default, switches to auto and back, and never changes the version', async () => {
    const p = await newProject('Mode');
    expect((await run.http.get(`/projects/${p}/goal-mode`)).body).toEqual({ project_id: p, mode: 'manual' });
    expect((await run.http.patch(`/projects/${p}/goal-mode`, { mode: 'auto' })).body).toEqual({ project_id: p, mode: 'auto' });
    expect((await run.http.get(`/projects/${p}/goal`)).body).toMatchObject({ mode: 'auto', version: 0 });
    await setGoal(p, { content: 'With a mode' });
    expect((await run.http.patch(`/projects/${p}/goal-mode`, { mode: 'manual' })).body.mode).toBe('manual');
    expect((await run.http.get(`/projects/${p}/goal`)).body).toMatchObject({ mode: 'manual', version: 1 });
    const bad = await run.http.patch(`/projects/${p}/goal-mode`, { mode: 'autopilot' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('mode must be one of manual, auto');
  });

  test('GET goal carries the 10 latest tasks as ambient context', async () => {
    const p = await newProject('Ambient');
    const s = (await run.http.post('/sessions/register', { project_id: p })).body;
    for (let i = 1; i <= 12; i++) await run.http.post('/tasks', { session_id: s.id, project_id: p, description: `step ${i}` });
    const goal = (await run.http.get(`/projects/${p}/goal`)).body;
    expect(goal.recent_tasks.map((t: { description: string }) => t.description)).toEqual([
      'step 12',
      'step 11',
      'step 10',
      'step 9',
      'step 8',
      'step 7',
      'step 6',
      'step 5',
      'step 4',
      'step 3',
    ]);
  });

  test('concurrent writes each get their own version: no version is lost or given twice', async () => {
    const p = await newProject('Concurrent goal');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => run.http.post(`/projects/${p}/goal`, { content: `draft ${i}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(results.map((r) => r.body.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    const history = (await run.http.get(`/projects/${p}/goal-history`)).body;
    expect(history.map((h: { version: number }) => h.version)).toEqual(Array.from({ length: 12 }, (_, i) => 12 - i));
  });

  test('the "goal" context section: north star, sprint label, then the goal text', async () => {
    const p = await newProject('Goal section');
    const none = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, p));
    expect(none.find((s) => s.key === 'goal')).toBeUndefined();
    await setGoal(p, { content: 'Line one\n\n\n\nLine two', north_star: 'A calm\nvision', sprint: 'S3' });
    const sections = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, p));
    expect(sections.find((s) => s.key === 'goal')).toEqual({
      key: 'goal',
      title: 'Goal',
      order: 20,
      lines: ['North star: A calm vision', 'Sprint: S3', 'Goal (version 1):', 'Line one', '', 'Line two'],
      // Kept whole in a brief block.
      whole: true,
    });
  });

  test('refusals: missing or oversized content, wrong types, unknown project; MCP gives the same detail', async () => {
    const p = await newProject('Refusals');
    expect((await run.http.post(`/projects/${p}/goal`, {})).body.detail).toBe('content is required');
    expect((await run.http.post(`/projects/${p}/goal`, { content: 'x'.repeat(100_001) })).status).toBe(400);
    expect((await run.http.post(`/projects/${p}/goal`, { content: 'x', minor: 'yes' })).body.detail).toBe('minor must be a boolean');
    const unknown = randomUUID();
    const missing = await run.http.get(`/projects/${unknown}/goal`);
    expect(missing.status).toBe(404);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const tool = await callTool(client, 'get_goal', { project_id: unknown });
      expect(tool.text).toBe(missing.body.detail);
      const set = await callTool(client, 'set_goal', { project_id: p, content: 'From a tool', sprint: 'T1' });
      expect(set.value).toMatchObject({ version: 1, content: 'From a tool', sprint: 'T1' });
      expect((await callTool(client, 'set_north_star', { project_id: p, north_star: 'Far away' })).value.version).toBe(2);
      expect((await callTool(client, 'set_sprint', { project_id: p, sprint: 'T2' })).value.version).toBe(3);
      expect((await callTool(client, 'get_goal_history', { project_id: p, limit: 1 })).value.map((h: { version: number }) => h.version)).toEqual([3]);
      expect((await callTool(client, 'set_goal_mode', { project_id: p, mode: 'auto' })).value.mode).toBe('auto');
      expect((await callTool(client, 'get_goal_mode', { project_id: p })).value.mode).toBe('auto');
      expect((await callTool(client, 'get_goal', { project_id: p })).value).toMatchObject({ version: 3, north_star: 'Far away', recent_tasks: [] });
    } finally {
      await client.close();
    }
  });

  test('bad input to every goal route and tool: 4xx with a detail, never 5xx', async () => {
    const p = await newProject('Goal fuzz');
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/goal`, body: { content: 'x', north_star: 'y', sprint: 'z', minor: false } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/goal/north-star`, body: { north_star: 'y', human_id: 'h' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${p}/goal/sprint`, body: { sprint: 'z' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/projects/${p}/goal-mode`, body: { mode: 'auto' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${p}/goal-history`, query: { limit: '5', offset: '0' } });
    for (const bad of BAD_SEGMENTS) {
      await fuzzPathIds(run.http, 'GET', [`/projects/${bad}/goal`, `/projects/${bad}/goal-history`, `/projects/${bad}/goal-mode`]);
      await fuzzPathIds(run.http, 'POST', [`/projects/${bad}/goal`], { content: 'x' });
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await fuzzTool(client, 'set_goal', { project_id: p, content: 'x', minor: true });
      await fuzzTool(client, 'set_north_star', { project_id: p, north_star: 'y' });
      await fuzzTool(client, 'set_sprint', { project_id: p, sprint: 'z' });
      await fuzzTool(client, 'set_goal_mode', { project_id: p, mode: 'manual' });
      await fuzzTool(client, 'get_goal_history', { project_id: p, limit: 3 });
    } finally {
      await client.close();
    }
  }, 300_000);
});

describe.each(hostedBackend())('goals across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project answers 404 on every goal route and tool, and its goal stays as it was", async () => {
    const p = (await run.http.post('/projects', { name: 'Goal owner' })).body.id;
    await run.http.post(`/projects/${p}/goal`, { content: 'Private plans' });
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const statuses = [
      (await intruder.get(`/projects/${p}/goal`)).status,
      (await intruder.post(`/projects/${p}/goal`, { content: 'hijack' })).status,
      (await intruder.post(`/projects/${p}/goal`, { content: 'hijack', minor: true })).status,
      (await intruder.post(`/projects/${p}/goal/north-star`, { north_star: 'x' })).status,
      (await intruder.post(`/projects/${p}/goal/sprint`, { sprint: 'x' })).status,
      (await intruder.get(`/projects/${p}/goal-history`)).status,
      (await intruder.get(`/projects/${p}/goal-mode`)).status,
      (await intruder.patch(`/projects/${p}/goal-mode`, { mode: 'auto' })).status,
    ];
    expect(statuses).toEqual(statuses.map(() => 404));
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(client, 'set_goal', { project_id: p, content: 'hijack' })).structured?.code).toBe('PROJECT_NOT_FOUND');
    } finally {
      await client.close();
    }
    expect((await run.http.get(`/projects/${p}/goal`)).body).toMatchObject({ content: 'Private plans', version: 1, mode: 'manual' });
  });
});
