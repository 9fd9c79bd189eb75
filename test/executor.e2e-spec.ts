import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { randomUUID } from 'node:crypto';
import { expectRefused } from './support/bad-input';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { setPlan } from './support/plans';
import { createProject } from './support/projects';
import { sleep } from './support/wait';

/** Executors record machines, runs, experiments and worktrees over MCP; people and dashboards read them over REST. */
describe.each(eachBackend())('executor records on %s', (_name, backend) => {
  let run: RunningBackend;
  let mcp: Client;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    await setPlan(run, 'paid');
    mcp = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await mcp?.close();
    await run?.stop();
  });

  async function tool(name: string, args: Record<string, unknown>) {
    const result = await callTool(mcp, name, args);
    if (result.isError) throw new Error(`${name}: ${result.text}`);
    return result.value;
  }
  const machine = (p: string, name: string, slots = 1) => tool('register_machine', { project_id: p, name, slots });
  const session = async (p: string) => (await run.http.post('/sessions/register', { project_id: p })).body.id as string;

  test('a machine registers by name, beats, is listed, and its slots make the project ready for a run', async () => {
    const p = await createProject(run.http, 'Machines');
    expect((await run.http.get(`/projects/${p}/slot-readiness`)).body).toEqual({
      ready: false,
      free_slots: 0,
      total_slots: 0,
      running_runs: 0,
      live_machines: 0,
      registered_machines: 0,
      queued_tasks: 0,
      reason: 'no machine is registered',
    });
    const m = await machine(p, 'build-box', 2);
    expect(m).toEqual({
      id: expect.any(String),
      project_id: p,
      name: 'build-box',
      slots: 2,
      running_runs: 0,
      alive: true,
      last_heartbeat_at: expect.any(String),
      created_at: m.created_at,
    });
    await sleep(5);
    expect((await machine(p, 'build-box', 1)).id).toBe(m.id);
    const beat = await tool('machine_heartbeat', { project_id: p, machine_id: m.id });
    expect(beat.slots).toBe(1);
    expect(Date.parse(beat.last_heartbeat_at)).toBeGreaterThan(Date.parse(m.last_heartbeat_at));
    expect((await run.http.get(`/projects/${p}/registered-machines`)).body.map((x: { name: string }) => x.name)).toEqual(['build-box']);
    expect((await run.http.get(`/projects/${p}/slot-readiness`)).body).toMatchObject({ ready: true, free_slots: 1, total_slots: 1, live_machines: 1, reason: null });
    const r = await tool('record_run', { project_id: p, machine_id: m.id, description: 'lint' });
    expect((await run.http.get(`/projects/${p}/slot-readiness`)).body).toMatchObject({ ready: false, free_slots: 0, running_runs: 1, reason: 'all 1 slots are busy' });
    const full = await callTool(mcp, 'record_run', { project_id: p, machine_id: m.id, description: 'test' });
    expect(full.structured).toMatchObject({ code: 'NO_FREE_SLOT' });
    await tool('finish_run', { project_id: p, run_id: r.id, status: 'succeeded' });
    expect((await run.http.get(`/projects/${p}/slot-readiness`)).body).toMatchObject({ ready: true, free_slots: 1 });
  });

  test('runs: listed newest first with a status filter, read one by one, finished once', async () => {
    const p = await createProject(run.http, 'Runs');
    const s = await session(p);
    const a = await tool('record_run', { project_id: p, description: 'first', session_id: s });
    await sleep(5);
    const b = await tool('record_run', { project_id: p, description: 'second' });
    expect(a).toMatchObject({ status: 'running', session_id: s, machine_id: null, task_id: null, finished_at: null });
    const list = await run.http.get(`/projects/${p}/runs`);
    expect(list.body.map((x: { id: string }) => x.id)).toEqual([b.id, a.id]);
    const done = await tool('finish_run', { project_id: p, run_id: a.id, status: 'failed', summary: 'flaky test' });
    expect(done).toMatchObject({ status: 'failed', summary: 'flaky test', finished_at: expect.any(String) });
    expect((await run.http.get(`/projects/${p}/runs/${a.id}`)).body).toEqual(done);
    expect((await run.http.get(`/projects/${p}/runs?status=running`)).body.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await run.http.get(`/projects/${p}/runs?limit=1&offset=1`)).body.map((x: { id: string }) => x.id)).toEqual([a.id]);
    const again = await callTool(mcp, 'finish_run', { project_id: p, run_id: a.id, status: 'succeeded' });
    expect(again.structured).toMatchObject({ code: 'RUN_NOT_RUNNING', status: 'failed' });
    expect((await run.http.get(`/projects/${p}/runs/${a.id}`)).body.status).toBe('failed');
    expect((await run.http.get(`/projects/${p}/runs/${randomUUID()}`)).body).toEqual({ detail: expect.stringMatching(/^run not found/), code: 'RUN_NOT_FOUND' });
    expect((await run.http.get(`/projects/${randomUUID()}/runs`)).status).toBe(404);
    await expectRefused(
      (q: string) => run.http.get(`/projects/${p}/runs${q}`),
      [
        ['?status=done', /^status must be one of running, succeeded, failed, orphaned$/],
        ['?limit=0', /limit/],
      ],
    );
    expect((await run.http.get(`/projects/${p}/runs/not-a-uuid`)).body.detail).toMatch(/run_id/);
    const unknownSession = await callTool(mcp, 'record_run', { project_id: p, description: 'x', session_id: randomUUID() });
    expect(unknownSession.isError).toBe(true);
    expect((await run.http.get(`/projects/${p}/runs`)).body).toHaveLength(2);
  });

  test('experiments: recorded with events and runs, listed by status', async () => {
    const p = await createProject(run.http, 'Experiments');
    const e = await tool('record_experiment', { project_id: p, name: 'Cache the context block', hypothesis: 'halves start time' });
    expect(e).toMatchObject({ name: 'Cache the context block', hypothesis: 'halves start time', status: 'running' });
    await sleep(5);
    const other = await tool('record_experiment', { project_id: p, name: 'Smaller handoffs' });
    await tool('record_experiment_event', { project_id: p, experiment_id: e.id, kind: 'observation', body: 'p50 went from 80 ms to 45 ms' });
    await sleep(5);
    await tool('record_experiment_event', { project_id: p, experiment_id: e.id, kind: 'metric', body: 'p99 45 ms' });
    const r = await tool('record_run', { project_id: p, description: 'bench', experiment_id: e.id });
    await tool('record_run', { project_id: p, description: 'unrelated' });
    await tool('set_experiment_status', { project_id: p, experiment_id: e.id, status: 'concluded' });
    const events = (await run.http.get(`/projects/${p}/experiments/${e.id}/events`)).body;
    expect(events.map((x: { kind: string; body: string }) => [x.kind, x.body])).toEqual([
      ['observation', 'p50 went from 80 ms to 45 ms'],
      ['metric', 'p99 45 ms'],
    ]);
    expect((await run.http.get(`/projects/${p}/experiments/${e.id}/runs`)).body.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expect((await run.http.get(`/projects/${p}/experiments`)).body.map((x: { id: string }) => x.id)).toEqual([other.id, e.id]);
    expect((await run.http.get(`/projects/${p}/experiments?status=concluded`)).body.map((x: { id: string }) => x.id)).toEqual([e.id]);
    expect((await run.http.get(`/projects/${p}/experiments?status=running`)).body.map((x: { id: string }) => x.id)).toEqual([other.id]);
    await expectRefused((q: string) => run.http.get(`/projects/${p}/experiments${q}`), [['?status=won', /^status must be one of running, concluded, abandoned$/]]);
    for (const path of ['events', 'runs']) {
      expect((await run.http.get(`/projects/${p}/experiments/${randomUUID()}/${path}`)).body.code).toBe('EXPERIMENT_NOT_FOUND');
      expect((await run.http.get(`/projects/${p}/experiments/nope/${path}`)).body.detail).toMatch(/experiment_id/);
    }
    const blank = await callTool(mcp, 'record_experiment_event', { project_id: p, experiment_id: e.id, kind: 'note', body: '  ' });
    expect(blank.isError).toBe(true);
    expect((await run.http.get(`/projects/${p}/experiments/${e.id}/events`)).body).toHaveLength(2);
  });

  test('a connector without MCP writes experiments, their events and status, and runs over REST, answered like the tools', async () => {
    const p = await createProject(run.http, 'Connector writes');
    const e = await run.http.post(`/projects/${p}/experiments`, { name: 'Warm the cache', hypothesis: 'fewer cold starts' });
    expect(e.status).toBe(201);
    expect(e.body).toMatchObject({ name: 'Warm the cache', hypothesis: 'fewer cold starts', status: 'running' });
    const event = await run.http.post(`/projects/${p}/experiments/${e.body.id}/events`, { kind: 'metric', body: 'cold starts 12 -> 3' });
    expect(event.status).toBe(201);
    const r = await run.http.post(`/projects/${p}/runs`, { description: 'bench the cache', experiment_id: e.body.id });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ status: 'running', experiment_id: e.body.id });
    const finished = await run.http.post(`/projects/${p}/runs/${r.body.id}/finish`, { status: 'succeeded', summary: '3 cold starts' });
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ status: 'succeeded', summary: '3 cold starts', finished_at: expect.any(String) });
    const again = await run.http.post(`/projects/${p}/runs/${r.body.id}/finish`, { status: 'failed' });
    expect([again.status, again.body.code]).toEqual([409, 'RUN_NOT_RUNNING']);
    const concluded = await run.http.patch(`/projects/${p}/experiments/${e.body.id}`, { status: 'concluded' });
    expect([concluded.status, concluded.body.status]).toEqual([200, 'concluded']);
    // What REST wrote reads back like what the tools write.
    expect((await run.http.get(`/projects/${p}/experiments/${e.body.id}/events`)).body).toEqual([event.body]);
    expect((await run.http.get(`/projects/${p}/experiments/${e.body.id}/runs`)).body).toEqual([finished.body]);
    expect((await run.http.get(`/projects/${p}/experiments?status=concluded`)).body.map((x: { id: string }) => x.id)).toEqual([e.body.id]);

    await expectRefused(
      (body) => run.http.post(`/projects/${p}/experiments`, body),
      [
        [{}, /name/],
        [{ name: 'x', verdict: 'won' }, /verdict/],
      ],
    );
    await expectRefused(
      (body) => run.http.post(`/projects/${p}/experiments/${e.body.id}/events`, body),
      [
        [{ kind: 'note', body: '  ' }, /body/],
        [{ body: 'no kind' }, /kind/],
      ],
    );
    await expectRefused((body) => run.http.patch(`/projects/${p}/experiments/${e.body.id}`, body), [[{ status: 'won' }, /^status must be one of/]]);
    await expectRefused(
      (body) => run.http.post(`/projects/${p}/runs`, body),
      [
        [{ description: 42 }, /description/],
        [{ description: 'x', experiment_id: 'nope' }, /experiment_id/],
      ],
    );
    await expectRefused((body) => run.http.post(`/projects/${p}/runs/${r.body.id}/finish`, body), [[{ status: 'running' }, /status/]]);
    expect((await run.http.post(`/projects/${p}/experiments/${randomUUID()}/events`, { kind: 'note', body: 'x' })).body.code).toBe('EXPERIMENT_NOT_FOUND');
    expect((await run.http.post(`/projects/${p}/runs/${randomUUID()}/finish`, { status: 'failed' })).body.code).toBe('RUN_NOT_FOUND');
    expect((await run.http.post(`/projects/${randomUUID()}/experiments`, { name: 'x' })).status).toBe(404);
    expect((await run.http.get(`/projects/${p}/experiments/${e.body.id}/events`)).body).toHaveLength(1);
    expect((await run.http.get(`/projects/${p}/runs`)).body).toHaveLength(1);
  });

  test('worktrees: registered, listed, swept to pending_cleanup when their session closed, deleted once', async () => {
    const p = await createProject(run.http, 'Worktrees');
    const s = await session(p);
    const res = await run.http.post(`/projects/${p}/worktrees`, { path: '/home/dev/wt/feature-a', branch: 'feature-a', session_id: s });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ path: '/home/dev/wt/feature-a', branch: 'feature-a', session_id: s, machine_id: null, status: 'active', cleanup_reason: null });
    const kept = (await run.http.post(`/projects/${p}/worktrees`, { path: '/home/dev/wt/kept' })).body;
    expect((await run.http.get(`/projects/${p}/worktrees`)).body.map((w: { id: string }) => w.id)).toEqual([res.body.id, kept.id]);
    expect((await run.http.get(`/projects/${p}/worktrees/pending_cleanup`)).body).toEqual([]);
    expect((await run.http.post(`/projects/${p}/worktrees/sweep`)).body).toEqual({ flagged: 0, pending_cleanup: [] });
    await run.http.post(`/sessions/${s}/close`, {});
    const swept = await run.http.post(`/projects/${p}/worktrees/sweep`);
    expect(swept.status).toBe(200);
    expect(swept.body).toEqual({
      flagged: 1,
      pending_cleanup: [expect.objectContaining({ id: res.body.id, status: 'pending_cleanup', cleanup_reason: `session ${s} is closed` })],
    });
    expect((await run.http.get(`/projects/${p}/worktrees/pending_cleanup`)).body.map((w: { id: string }) => w.id)).toEqual([res.body.id]);
    expect((await run.http.delete(`/projects/${p}/worktrees/${res.body.id}`)).status).toBe(204);
    expect((await run.http.delete(`/projects/${p}/worktrees/${res.body.id}`)).body).toEqual({ detail: expect.stringMatching(/^worktree not found/), code: 'WORKTREE_NOT_FOUND' });
    await expectRefused(
      (body: unknown) => run.http.post(`/projects/${p}/worktrees`, body),
      [
        [{}, /^path is required$/],
        [{ path: '' }, /^path must not be empty$/],
        [{ path: 'x', branch: 3 }, /^branch must be a string$/],
        [{ path: 'x', machine_id: 'm1' }, /machine_id/],
        [{ path: 'x', extra: 1 }, /extra/],
        [{ path: 'x', machine_id: randomUUID() }, 404, /^registered machine not found/],
      ],
    );
    expect((await run.http.delete(`/projects/${p}/worktrees/nope`)).body.detail).toMatch(/worktree_id/);
    expect((await run.http.get(`/projects/${p}/worktrees`)).body.map((w: { id: string }) => w.id)).toEqual([kept.id]);
  });

  test('queued tasks: two executors race for one task, one wins; the run finishing finishes the task', async () => {
    const p = await createProject(run.http, 'Queue');
    const [m1, m2] = [await machine(p, 'one', 4), await machine(p, 'two', 4)];
    const task = await run.http.post('/tasks/enqueue', { project_id: p, description: 'upgrade the lockfile' });
    expect(task.status).toBe(201);
    expect((await run.http.get(`/projects/${p}/slot-readiness`)).body.queued_tasks).toBe(1);
    const clients = await Promise.all([0, 1, 2, 3].map(() => connectMcp(run.testApp.url, run.token)));
    try {
      const claims = await Promise.all(clients.map((c, i) => callTool(c, 'claim_queued_task', { project_id: p, machine_id: i % 2 ? m1.id : m2.id })));
      const winners = claims.filter((c) => c.value.claimed);
      expect(winners).toHaveLength(1);
      expect(claims.filter((c) => !c.isError && c.value.claimed === false)).toHaveLength(3);
      const won = winners[0].value;
      expect(won.task).toMatchObject({ id: task.body.id, status: 'in_progress' });
      expect(won.run).toMatchObject({ task_id: task.body.id, status: 'running', description: 'upgrade the lockfile' });
      expect((await run.http.get(`/projects/${p}/runs`)).body).toHaveLength(1);
      await tool('finish_run', { project_id: p, run_id: won.run.id, status: 'succeeded', summary: 'bumped 12 packages' });
      expect((await run.http.get(`/tasks/${task.body.id}`)).body.status).toBe('done');
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect((await tool('claim_queued_task', { project_id: p, machine_id: m1.id })).claimed).toBe(false);
    expect((await callTool(mcp, 'claim_queued_task', { project_id: p, machine_id: randomUUID() })).structured).toMatchObject({ code: 'MACHINE_NOT_FOUND' });
  });

  test('deregistering a machine orphans its runs, hands their queued tasks back and marks its worktrees for cleanup', async () => {
    const p = await createProject(run.http, 'Deregister');
    const m = await machine(p, 'gone', 2);
    await run.http.post('/tasks/enqueue', { project_id: p, description: 'nightly build' });
    const claim = await tool('claim_queued_task', { project_id: p, machine_id: m.id });
    const wt = (await run.http.post(`/projects/${p}/worktrees`, { path: '/srv/wt/nightly', machine_id: m.id })).body;
    expect((await run.http.delete(`/projects/${p}/registered-machines/${m.id}`)).status).toBe(204);
    expect((await run.http.get(`/projects/${p}/runs/${claim.run.id}`)).body).toMatchObject({ status: 'orphaned', summary: 'machine gone was deregistered', machine_id: null });
    expect((await run.http.get(`/tasks/${claim.task.id}`)).body).toMatchObject({ status: 'pending', claimed_by: null });
    expect((await run.http.get(`/projects/${p}/worktrees/pending_cleanup`)).body).toEqual([
      expect.objectContaining({ id: wt.id, cleanup_reason: 'machine gone was deregistered' }),
    ]);
    expect((await run.http.get(`/projects/${p}/registered-machines`)).body).toEqual([]);
    expect((await run.http.delete(`/projects/${p}/registered-machines/${m.id}`)).body.code).toBe('MACHINE_NOT_FOUND');
    expect((await run.http.delete(`/projects/${p}/registered-machines/12`)).body.detail).toMatch(/machine_id/);
  });

  test('register_machine refuses bad input, naming the field, and stores nothing', async () => {
    const p = await createProject(run.http, 'Bad machines');
    for (const [args, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x', slots: 0 }, 'slots'],
      [{ name: 'x', slots: 2.5 }, 'slots'],
      [{ name: 'x', slots: true }, 'slots'],
      [{ name: 'x', slots: 1001 }, 'slots'],
    ] as const) {
      const res = await callTool(mcp, 'register_machine', { project_id: p, ...args });
      expect([JSON.stringify(args), res.isError, res.text]).toEqual([JSON.stringify(args), true, expect.stringContaining(field)]);
    }
    expect((await run.http.get(`/projects/${p}/registered-machines`)).body).toEqual([]);
  });

  test('the orphan reaper is on by default; toggle flips it or sets it; bad input is refused', async () => {
    const p = await createProject(run.http, 'Reaper');
    const state = await run.http.get(`/projects/${p}/orphan_reaper`);
    expect(state.body).toEqual({
      project_id: p,
      enabled: true,
      interval_seconds: 0,
      machine_stale_seconds: 300,
      session_idle_seconds: 1800,
      last_run_at: null,
      next_run_at: null,
      run_count: 0,
      orphaned_runs_total: 0,
      flagged_worktrees_total: 0,
    });
    const off = await run.http.post(`/projects/${p}/orphan_reaper/toggle`);
    expect([off.status, off.body.enabled]).toEqual([200, false]);
    expect((await run.http.post(`/projects/${p}/orphan_reaper/toggle`, { enabled: false })).body.enabled).toBe(false);
    expect((await run.http.post(`/projects/${p}/orphan_reaper/toggle`, {})).body.enabled).toBe(true);
    expect((await run.http.get(`/projects/${p}/orphan_reaper`)).body.enabled).toBe(true);
    await expectRefused(
      (body: unknown) => run.http.post(`/projects/${p}/orphan_reaper/toggle`, body),
      [
        [{ enabled: 'yes' }, /^enabled must be true or false$/],
        [{ enabled: null }, /enabled/],
        [{ on: true }, /on/],
      ],
    );
    expect((await run.http.get(`/projects/${p}/orphan_reaper`)).body.enabled).toBe(true);
    expect((await run.http.get(`/projects/${randomUUID()}/orphan_reaper`)).status).toBe(404);
    expect((await run.http.post(`/projects/${randomUUID()}/orphan_reaper/toggle`)).status).toBe(404);
  });
});
