import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { ContextSections } from '../src/common/extensions/context-sections';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { BAD_SEGMENTS, fuzzPathIds, fuzzRoute, fuzzTool } from './support/route-fuzz';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { setPlan } from './support/plans';

describe.each(eachBackend())('tasks on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  let session: { id: string };

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000', SERVICE_PLAN_CACHE_SECONDS: '0' });
    await setPlan(run, 'paid');
    projectId = await newProject('Tasks');
    session = await register(projectId);
  });
  afterAll(async () => {
    await run?.stop();
  });

  const newProject = (name: string) => createProject(run.http, name);
  async function register(project: string, name?: string) {
    const res = await run.http.post('/sessions/register', { project_id: project, ...(name ? { name } : {}) });
    expect(res.status).toBe(201);
    return res.body as { id: string; name: string };
  }
  async function logTask(project: string, sessionId: string, description: string, status?: string) {
    const res = await run.http.post('/tasks', { session_id: sessionId, project_id: project, description, ...(status ? { status } : {}) });
    expect(res.status).toBe(201);
    return res.body;
  }

  test('POST /tasks logs a task for a session of the project: 201, status done by default', async () => {
    const res = await run.http.post('/tasks', { session_id: session.id, project_id: projectId, description: 'Wrote the login form' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      project_id: projectId,
      session_id: session.id,
      description: 'Wrote the login form',
      status: 'done',
      source: 'log',
      claimed_by: null,
      claimed_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await run.http.get(`/tasks/${res.body.id}`)).body).toEqual(res.body);
    const defaulted = await run.http.post('/tasks', { session_id: session.id, project_id: projectId, description: 'null is not given', status: null });
    expect(defaulted.body.status).toBe('done');
    const working = await logTask(projectId, session.id, 'Refactoring the router', 'in_progress');
    expect(working).toMatchObject({ status: 'in_progress', claimed_by: session.id });
  });

  test('a task for an unknown session is refused (404), a session of another project too (400), an unknown project 404', async () => {
    const unknown = await run.http.post('/tasks', { session_id: randomUUID(), project_id: projectId, description: 'ghost work' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'SESSION_NOT_FOUND', detail: expect.stringContaining('session not found') });
    const elsewhere = await register(await newProject('Elsewhere'));
    const wrong = await run.http.post('/tasks', { session_id: elsewhere.id, project_id: projectId, description: 'misplaced' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('SESSION_NOT_IN_PROJECT');
    const noProject = await run.http.post('/tasks', { session_id: session.id, project_id: randomUUID(), description: 'x' });
    expect(noProject.status).toBe(404);
    expect(noProject.body.code).toBe('PROJECT_NOT_FOUND');
    const bad = await run.http.post('/tasks', { session_id: session.id, project_id: projectId, description: 'x', status: 'finished' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/status must be one of pending, in_progress, done, failed, backlog, future, backburner/);
    expect((await run.http.post('/tasks', { session_id: session.id, project_id: projectId, description: '   ' })).status).toBe(400);
  });

  test('GET /projects/{id}/tasks lists newest first, 50 by default, with limit and offset; limit is capped at 200', async () => {
    const project = await newProject('Paging');
    const s = await register(project);
    for (let i = 0; i < 55; i++) await logTask(project, s.id, `task number ${i}`);
    const first = await run.http.get(`/projects/${project}/tasks`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.body[0].description).toBe('task number 54');
    expect(first.body[49].description).toBe('task number 5');
    const page = await run.http.get(`/projects/${project}/tasks?limit=3&offset=52`);
    expect(page.body.map((t: { description: string }) => t.description)).toEqual(['task number 2', 'task number 1', 'task number 0']);
    expect((await run.http.get(`/projects/${project}/tasks?limit=200`)).body).toHaveLength(55);
    const over = await run.http.get(`/projects/${project}/tasks?limit=201`);
    expect(over.status).toBe(400);
    expect(over.body.detail).toBe('limit must be at most 200');
    expect((await run.http.get(`/projects/${project}/tasks?limit=0`)).status).toBe(400);
    expect((await run.http.get(`/projects/${project}/tasks?offset=-1`)).status).toBe(400);
    expect((await run.http.get(`/projects/${project}/tasks?limit=abc`)).body.detail).toBe('limit must be an integer');
    await logTask(project, s.id, 'parked idea', 'backlog');
    const parked = await run.http.get(`/projects/${project}/tasks?status=backlog`);
    expect(parked.body.map((t: { description: string }) => t.description)).toEqual(['parked idea']);
    expect((await run.http.get(`/projects/${randomUUID()}/tasks`)).status).toBe(404);
  });

  test('PATCH /tasks/{id} follows the status transitions; claim and release are the only doors in and out of in_progress', async () => {
    const t = await logTask(projectId, session.id, 'Write the docs', 'pending');
    const toBacklog = await run.http.patch(`/tasks/${t.id}`, { status: 'backlog' });
    expect(toBacklog.status).toBe(200);
    expect(toBacklog.body.status).toBe('backlog');
    const claim = await run.http.patch(`/tasks/${t.id}`, { status: 'in_progress' });
    expect(claim.status).toBe(409);
    expect(claim.body).toMatchObject({ code: 'TASK_TRANSITION_REFUSED', status: 'backlog', detail: expect.stringContaining('claim it with POST') });
    expect((await run.http.patch(`/tasks/${t.id}`, { status: 'done', description: 'Wrote the docs' })).body).toMatchObject({ status: 'done', description: 'Wrote the docs' });
    const failDone = await run.http.patch(`/tasks/${t.id}`, { status: 'failed' });
    expect(failDone.status).toBe(409);
    expect(failDone.body.allowed).toEqual(['pending']);
    const reopened = await run.http.patch(`/tasks/${t.id}`, { status: 'pending' });
    expect(reopened.body).toMatchObject({ status: 'pending', claimed_by: null });
    const working = await logTask(projectId, session.id, 'In flight', 'in_progress');
    const back = await run.http.patch(`/tasks/${working.id}`, { status: 'pending' });
    expect(back.status).toBe(409);
    expect(back.body.detail).toContain('releases it with POST');
    expect((await run.http.patch(`/tasks/${working.id}`, { status: 'done' })).body).toMatchObject({ status: 'done', claimed_by: session.id });
    const empty = await run.http.patch(`/tasks/${t.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('give status and/or description to change');
    expect((await run.http.patch(`/tasks/${randomUUID()}`, { status: 'done' })).status).toBe(404);
  });

  test('DELETE /tasks/{id} deletes for good: 204, then 404', async () => {
    const t = await logTask(projectId, session.id, 'Disposable');
    const del = await run.http.delete(`/tasks/${t.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await run.http.get(`/tasks/${t.id}`)).status).toBe(404);
    expect((await run.http.delete(`/tasks/${t.id}`)).body.code).toBe('TASK_NOT_FOUND');
  });

  test('claimable lists unclaimed pending tasks oldest first, enqueued ones included, parked ones not', async () => {
    const project = await newProject('Queue');
    const s = await register(project);
    const a = await logTask(project, s.id, 'first pending', 'pending');
    await logTask(project, s.id, 'parked', 'future');
    await logTask(project, s.id, 'finished');
    const queued = await run.http.post('/tasks/enqueue', { project_id: project, description: 'run the migrations on staging' });
    expect(queued.status).toBe(201);
    expect(queued.body).toMatchObject({ status: 'pending', source: 'enqueue', session_id: null, claimed_by: null });
    const claimable = await run.http.get(`/projects/${project}/tasks/claimable`);
    expect(claimable.body.map((t: { id: string }) => t.id)).toEqual([a.id, queued.body.id]);
    await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id, task_id: a.id });
    expect((await run.http.get(`/projects/${project}/tasks/claimable`)).body.map((t: { id: string }) => t.id)).toEqual([queued.body.id]);
    expect((await run.http.post('/tasks/enqueue', { project_id: randomUUID(), description: 'x' })).status).toBe(404);
    const foreign = await register(await newProject('Foreign'));
    expect((await run.http.post('/tasks/enqueue', { project_id: project, description: 'x', session_id: foreign.id })).status).toBe(400);
  });

  test('32 concurrent claims of one task: exactly one claimed: true, every loser told claimed_by', async () => {
    const project = await newProject('Race');
    const owner = await register(project);
    const task = await logTask(project, owner.id, 'the one prize', 'pending');
    const racers = await Promise.all(Array.from({ length: 32 }, (_, i) => register(project, `racer-${i}`)));
    const results = await Promise.all(racers.map((r) => run.http.post(`/projects/${project}/tasks/claim`, { session_id: r.id, task_id: task.id })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const winners = results.filter((r) => r.body.claimed === true);
    expect(winners).toHaveLength(1);
    const winner = winners[0].body.task.claimed_by;
    expect(racers.map((r) => r.id)).toContain(winner);
    for (const loser of results.filter((r) => r.body.claimed === false)) {
      expect(loser.body).toMatchObject({ claimed: false, claimed_by: winner, task: { id: task.id, status: 'in_progress' } });
    }
    const stored = (await run.http.get(`/tasks/${task.id}`)).body;
    expect(stored).toMatchObject({ status: 'in_progress', claimed_by: winner, claimed_at: expect.any(String) });
  });

  test('claim without task_id takes the oldest pending task; with nothing left, claimed: false and task null', async () => {
    const project = await newProject('Next');
    const s = await register(project);
    const oldest = await logTask(project, s.id, 'oldest', 'pending');
    const newer = await logTask(project, s.id, 'newer', 'pending');
    const first = await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id });
    expect(first.body).toMatchObject({ claimed: true, task: { id: oldest.id, claimed_by: s.id } });
    expect((await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id })).body.task.id).toBe(newer.id);
    expect((await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id })).body).toEqual({ claimed: false, claimed_by: null, task: null });
    const done = await logTask(project, s.id, 'finished already');
    expect((await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id, task_id: done.id })).body).toMatchObject({
      claimed: false,
      claimed_by: null,
      task: { status: 'done' },
    });
    expect((await run.http.post(`/projects/${project}/tasks/claim`, { session_id: s.id, task_id: randomUUID() })).status).toBe(404);
  });

  test('a closed session cannot claim; closing a session hands its claimed tasks back to pending', async () => {
    const project = await newProject('Closing');
    const worker = await register(project);
    const t = await logTask(project, worker.id, 'half done', 'pending');
    await run.http.post(`/projects/${project}/tasks/claim`, { session_id: worker.id, task_id: t.id });
    await run.http.post(`/sessions/${worker.id}/close`);
    expect((await run.http.get(`/tasks/${t.id}`)).body).toMatchObject({ status: 'pending', claimed_by: null, claimed_at: null });
    const refused = await run.http.post(`/projects/${project}/tasks/claim`, { session_id: worker.id, task_id: t.id });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('SESSION_CLOSED');
  });

  test('release only by the claimer: another session is refused with claimed_by; the claimer hands it back', async () => {
    const project = await newProject('Release');
    const a = await register(project, 'alice');
    const b = await register(project, 'bob');
    const t = await logTask(project, a.id, 'contested', 'pending');
    await run.http.post(`/projects/${project}/tasks/claim`, { session_id: a.id, task_id: t.id });
    const stolen = await run.http.post(`/projects/${project}/tasks/release`, { task_id: t.id, session_id: b.id });
    expect(stolen.status).toBe(409);
    expect(stolen.body).toMatchObject({ code: 'TASK_CLAIMED_BY_OTHER', claimed_by: a.id });
    expect((await run.http.get(`/tasks/${t.id}`)).body.claimed_by).toBe(a.id);
    const released = await run.http.post(`/projects/${project}/tasks/release`, { task_id: t.id, session_id: a.id });
    expect(released.status).toBe(200);
    expect(released.body).toMatchObject({ released: true, task: { id: t.id, status: 'pending', claimed_by: null } });
    const again = await run.http.post(`/projects/${project}/tasks/release`, { task_id: t.id, session_id: a.id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'TASK_NOT_CLAIMED', status: 'pending' });
    expect((await run.http.post(`/projects/${project}/tasks/release`, { task_id: randomUUID(), session_id: a.id })).status).toBe(404);
  });

  test('search: full-text over descriptions, every word, any form of a word, scoped to the project, safe with any text', async () => {
    const project = await newProject('Search');
    const s = await register(project);
    const flaky = await logTask(project, s.id, 'Fixed the flaky payment tests on CI');
    const payments = await logTask(project, s.id, 'Payment webhook retries');
    await logTask(project, s.id, 'Unrelated cleanup of the README');
    const other = await newProject('Search other');
    await logTask(other, (await register(other)).id, 'payment tests elsewhere');
    const ids = async (q: string) => {
      const res = await run.http.get(`/projects/${project}/tasks/search?query=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
      return res.body.map((t: { id: string }) => t.id);
    };
    expect((await ids('payment')).sort()).toEqual([flaky.id, payments.id].sort());
    expect(await ids('payments test')).toEqual([flaky.id]);
    expect(await ids('retry')).toEqual([payments.id]);
    expect(await ids('flaky" * ( payment')).toEqual([flaky.id]);
    expect(await ids('nothing-like-this')).toEqual([]);
    const short = await run.http.get(`/projects/${project}/tasks/search?q=webhook`);
    expect(short.body.map((t: { id: string }) => t.id)).toEqual([payments.id]);
    await run.http.patch(`/tasks/${payments.id}`, { description: 'Invoice emails' });
    expect(await ids('webhook')).toEqual([]);
    expect(await ids('invoice')).toEqual([payments.id]);
    await run.http.delete(`/tasks/${flaky.id}`);
    expect(await ids('flaky')).toEqual([]);
    const empty = await run.http.get(`/projects/${project}/tasks/search?query=${encodeURIComponent('*** "" ()')}`);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toBe('query must contain at least one word');
    expect((await run.http.get(`/projects/${project}/tasks/search`)).status).toBe(400);
    expect((await run.http.get(`/projects/${project}/tasks/search?query=a&q=b`)).status).toBe(400);
  });

  test('MCP tools do what the routes do, with the same detail on refusals', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const project = await newProject('Tools');
      const s = await register(project);
      const logged = await callTool(client, 'log_task', { session_id: s.id, project_id: project, description: 'via mcp', status: 'pending' });
      expect(logged.value).toMatchObject({ status: 'pending', source: 'log' });
      expect((await callTool(client, 'get_tasks', { project_id: project, limit: 5 })).value.map((t: { id: string }) => t.id)).toEqual([logged.value.id]);
      expect((await callTool(client, 'get_claimable_tasks', { project_id: project })).value).toHaveLength(1);
      const claimed = await callTool(client, 'claim_task', { project_id: project, session_id: s.id, task_id: logged.value.id });
      expect(claimed.value).toMatchObject({ claimed: true });
      expect((await callTool(client, 'release_task', { project_id: project, session_id: s.id, task_id: logged.value.id })).value.released).toBe(true);
      expect((await callTool(client, 'search_tasks', { project_id: project, query: 'mcp' })).value).toHaveLength(1);
      expect((await callTool(client, 'update_task', { task_id: logged.value.id, status: 'done' })).value.status).toBe('done');
      expect((await callTool(client, 'get_task', { task_id: logged.value.id })).value.status).toBe('done');
      const queued = await callTool(client, 'enqueue_task', { project_id: project, description: 'executor work' });
      expect(queued.value).toMatchObject({ source: 'enqueue', status: 'pending' });
      expect((await callTool(client, 'delete_task', { task_id: queued.value.id })).value).toEqual({ deleted: queued.value.id });

      const ghost = { session_id: randomUUID(), project_id: project, description: 'ghost' };
      const rest = await run.http.post('/tasks', ghost);
      const tool = await callTool(client, 'log_task', ghost);
      expect(tool.isError).toBe(true);
      expect(tool.text).toBe(rest.body.detail);
      expect(tool.structured?.code).toBe('SESSION_NOT_FOUND');
    } finally {
      await client.close();
    }
  });

  test('the "tasks" context section: the 10 newest of 10,000 tasks, newest first, from an indexed, limited read', async () => {
    const project = await newProject('Ten thousand');
    const s = await register(project);
    await inTenantDb(run.testApp, run.token, (m) => bulkTasks(m, project, s.id, 10_000));
    await logTask(project, s.id, 'the very latest\nover two lines');
    const started = Date.now();
    const sections = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, project));
    const elapsed = Date.now() - started;
    const tasks = sections.find((x) => x.key === 'tasks');
    expect(tasks).toMatchObject({ key: 'tasks', order: 40, title: 'Recent tasks' });
    expect(tasks?.lines).toHaveLength(10);
    expect(tasks?.lines[0]).toMatch(/^- \[done\] the very latest over two lines \(\d{4}-/);
    expect(tasks?.lines[1]).toMatch(/^- \[done\] bulk task 10000 /);
    expect(tasks?.lines[9]).toMatch(/^- \[done\] bulk task 9992 /);
    // Generous: the machine is shared; an unindexed sort over 10,000 rows per project would still show up in the plan below.
    expect(elapsed).toBeLessThan(15_000);
    if (run.testApp.config.databaseType === 'sqlite') {
      const plan: { detail: string }[] = await inTenantDb(run.testApp, run.token, (m) =>
        m.query('EXPLAIN QUERY PLAN SELECT id FROM tasks WHERE project_id = ? ORDER BY seq DESC LIMIT 10', [project]),
      );
      const text = plan.map((p) => p.detail).join('\n');
      expect(text).toContain('tasks_project_seq_ix');
      expect(text).not.toContain('TEMP B-TREE');
    }
    const goal = await run.http.get(`/projects/${project}/goal`);
    expect(goal.body.recent_tasks).toHaveLength(10);
    expect(goal.body.recent_tasks[0].description).toBe('the very latest\nover two lines');
    // Deleting the project removes its 10,001 tasks and, on SQLite, their full-text rows with them.
    expect((await run.http.delete(`/projects/${project}`)).status).toBe(204);
    if (run.testApp.config.databaseType === 'sqlite') {
      const [counts] = await inTenantDb(run.testApp, run.token, (m) => m.query('SELECT (SELECT count(*) FROM tasks) AS tasks, (SELECT count(*) FROM tasks_fts) AS indexed'));
      expect(counts.indexed).toBe(counts.tasks);
    }
  });

  test('bad input to every task route and tool: 4xx with a detail, never 5xx', async () => {
    const project = await newProject('Fuzz');
    const s = await register(project);
    const t = await logTask(project, s.id, 'fuzz target', 'pending');
    await fuzzRoute(run.http, { method: 'POST', path: '/tasks', body: { session_id: s.id, project_id: project, description: 'x', status: 'done' } });
    await fuzzRoute(run.http, { method: 'POST', path: '/tasks/enqueue', body: { project_id: project, description: 'x' } });
    await fuzzRoute(run.http, { method: 'PATCH', path: `/tasks/${t.id}`, body: { description: 'fuzzed' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${project}/tasks`, query: { limit: '5', offset: '0', status: 'done' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${project}/tasks/claimable`, query: { limit: '5' } });
    await fuzzRoute(run.http, { method: 'GET', path: `/projects/${project}/tasks/search`, query: { query: 'fuzz', limit: '5' } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${project}/tasks/claim`, body: { session_id: s.id, task_id: t.id } });
    await fuzzRoute(run.http, { method: 'POST', path: `/projects/${project}/tasks/release`, body: { session_id: s.id, task_id: t.id } });
    for (const bad of BAD_SEGMENTS) {
      await fuzzPathIds(run.http, 'GET', [`/tasks/${bad}`, `/projects/${bad}/tasks`, `/projects/${bad}/tasks/claimable`, `/projects/${bad}/tasks/search?query=a`]);
      await fuzzPathIds(run.http, 'PATCH', [`/tasks/${bad}`], { status: 'done' });
      await fuzzPathIds(run.http, 'DELETE', [`/tasks/${bad}`]);
      await fuzzPathIds(run.http, 'POST', [`/projects/${bad}/tasks/claim`], { session_id: s.id });
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await fuzzTool(client, 'log_task', { session_id: s.id, project_id: project, description: 'x' });
      await fuzzTool(client, 'get_tasks', { project_id: project, limit: 5 });
      await fuzzTool(client, 'update_task', { task_id: t.id, description: 'fuzzed again' });
      await fuzzTool(client, 'claim_task', { project_id: project, session_id: s.id });
      await fuzzTool(client, 'release_task', { project_id: project, session_id: s.id, task_id: t.id });
      await fuzzTool(client, 'search_tasks', { project_id: project, query: 'fuzz' });
      await fuzzTool(client, 'enqueue_task', { project_id: project, description: 'x' });
    } finally {
      await client.close();
    }
  }, 300_000);
});

describe.each(hostedBackend())('tasks across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000', SERVICE_PLAN_CACHE_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's project, session and task ids answer 404 on every task route and tool", async () => {
    const projectId = (await run.http.post('/projects', { name: 'Mine' })).body.id;
    const s = (await run.http.post('/sessions/register', { project_id: projectId })).body;
    const t = (await run.http.post('/tasks', { session_id: s.id, project_id: projectId, description: 'secret work', status: 'pending' })).body;
    const other = await tenantClient(run.testApp, 'other');
    const intruder = other.http;
    const theirs = (await intruder.post('/projects', { name: 'Theirs' })).body.id;
    const theirSession = (await intruder.post('/sessions/register', { project_id: theirs })).body;
    await setPlan(run, 'paid');
    const probes = [
      await intruder.get(`/tasks/${t.id}`),
      await intruder.patch(`/tasks/${t.id}`, { status: 'done' }),
      await intruder.delete(`/tasks/${t.id}`),
      await intruder.get(`/projects/${projectId}/tasks`),
      await intruder.get(`/projects/${projectId}/tasks/claimable`),
      await intruder.get(`/projects/${projectId}/tasks/search?query=secret`),
      await intruder.post(`/projects/${projectId}/tasks/claim`, { session_id: theirSession.id, task_id: t.id }),
      await intruder.post(`/projects/${theirs}/tasks/claim`, { session_id: theirSession.id, task_id: t.id }),
      await intruder.post(`/projects/${theirs}/tasks/release`, { session_id: theirSession.id, task_id: t.id }),
      await intruder.post('/tasks', { session_id: s.id, project_id: theirs, description: 'x' }),
      await intruder.post('/tasks', { session_id: theirSession.id, project_id: projectId, description: 'x' }),
      await intruder.post('/tasks/enqueue', { project_id: projectId, description: 'x' }),
    ];
    expect(probes.map((p) => p.status)).toEqual(probes.map(() => 404));
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(client, 'get_task', { task_id: t.id })).structured?.code).toBe('TASK_NOT_FOUND');
      expect((await callTool(client, 'claim_task', { project_id: projectId, session_id: theirSession.id })).structured?.code).toBe('PROJECT_NOT_FOUND');
    } finally {
      await client.close();
    }
    expect((await run.http.get(`/tasks/${t.id}`)).body).toMatchObject({ status: 'pending', claimed_by: null, description: 'secret work' });
  });
});

/** Inserts `count` done tasks ("bulk task 1" oldest ... "bulk task N" newest) in one statement. */
async function bulkTasks(m: EntityManager, projectId: string, sessionId: string, count: number): Promise<void> {
  if (m.connection.options.type === 'postgres') {
    await m.query(
      `INSERT INTO tasks (id, project_id, session_id, description, status, source, created_at, updated_at)
       SELECT gen_random_uuid(), $1, $2, 'bulk task ' || g, 'done', 'log', now() - interval '1 hour' + g * interval '1 ms', now()
         FROM generate_series(1, $3::int) g ORDER BY g`,
      [projectId, sessionId, count],
    );
    return;
  }
  const [{ base }] = await m.query('SELECT COALESCE(MAX(seq), 0) AS base FROM tasks');
  await m.query(
    `WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ?)
     INSERT INTO tasks (id, seq, project_id, session_id, description, status, source, created_at, updated_at)
     SELECT lower(printf('%s-%s-4%s-a%s-%s', hex(randomblob(4)), hex(randomblob(2)), substr(hex(randomblob(2)), 2), substr(hex(randomblob(2)), 2), hex(randomblob(6)))),
            ? + n, ?, ?, 'bulk task ' || n, 'done', 'log', strftime('%Y-%m-%d %H:%M:%f', 'now', '-1 hour'), strftime('%Y-%m-%d %H:%M:%f', 'now')
       FROM g`,
    [count, base, projectId, sessionId],
  );
}
