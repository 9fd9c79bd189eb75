import { randomUUID } from 'node:crypto';
import { hostedBackend, RunningBackend } from './support/backends';
import { callToolOnce } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

/** Hosted: what a plan allows executors, and that one tenant's executor records are another's unknown ids. */
describe.each(hostedBackend())('executors across tenants and plans on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({
      SERVICE_SWEEP_INTERVAL_SECONDS: '0',
      SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0',
      SERVICE_MCP_RATE_LIMIT: '1000000',
      SERVICE_PLAN_CACHE_SECONDS: '0',
    });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const planOf = (tenantId: string, plan: 'free' | 'paid') => run.db!.query('UPDATE control.tenants SET plan = $1 WHERE id = $2', [plan, tenantId]);

  test("another tenant's experiments and runs are unknown to the REST writes: 404, nothing changed", async () => {
    const mine = await tenantClient(run.testApp, 'exec-writes-mine');
    const theirs = await tenantClient(run.testApp, 'exec-writes-theirs');
    const p = await createProject(mine.http, 'Mine');
    const e = (await mine.http.post(`/projects/${p}/experiments`, { name: 'Mine' })).body;
    const r = (await mine.http.post(`/projects/${p}/runs`, { description: 'mine' })).body;
    const answers = [
      await theirs.http.post(`/projects/${p}/experiments`, { name: 'Intruder' }),
      await theirs.http.post(`/projects/${p}/experiments/${e.id}/events`, { kind: 'note', body: 'intruder' }),
      await theirs.http.patch(`/projects/${p}/experiments/${e.id}`, { status: 'abandoned' }),
      await theirs.http.post(`/projects/${p}/runs`, { description: 'intruder' }),
      await theirs.http.post(`/projects/${p}/runs/${r.id}/finish`, { status: 'failed' }),
    ];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    const ownProject = await createProject(theirs.http, 'Theirs');
    expect((await theirs.http.post(`/projects/${ownProject}/runs/${r.id}/finish`, { status: 'failed' })).body.code).toBe('RUN_NOT_FOUND');
    expect((await theirs.http.patch(`/projects/${ownProject}/experiments/${e.id}`, { status: 'abandoned' })).body.code).toBe('EXPERIMENT_NOT_FOUND');
    expect((await mine.http.get(`/projects/${p}/experiments`)).body).toEqual([expect.objectContaining({ id: e.id, status: 'running' })]);
    expect((await mine.http.get(`/projects/${p}/runs/${r.id}`)).body.status).toBe('running');
    expect((await mine.http.get(`/projects/${p}/experiments/${e.id}/events`)).body).toEqual([]);
  });

  test('POST /tasks/enqueue on the free plan answers 402 PLAN_REQUIRED naming the plan and queues nothing; on the paid plan it queues', async () => {
    const tenant = await tenantClient(run.testApp, 'queue-plans');
    const p = await createProject(tenant.http, 'Queue');
    const refused = await tenant.http.post('/tasks/enqueue', { project_id: p, description: 'refactor the router' });
    expect(refused.status).toBe(402);
    expect(refused.body).toEqual({
      detail: 'queued assistant tasks (POST /tasks/enqueue) need the paid plan: this workspace is on the free plan',
      code: 'PLAN_REQUIRED',
      plan: 'free',
      required_plan: 'paid',
    });
    const viaTool = await callToolOnce(run.testApp.url, tenant.token, 'enqueue_task', { project_id: p, description: 'x' });
    expect([viaTool.isError, viaTool.structured?.code]).toEqual([true, 'PLAN_REQUIRED']);
    expect((await tenant.http.get(`/projects/${p}/tasks`)).body).toEqual([]);
    await planOf(tenant.tenant_id, 'paid');
    const queued = await tenant.http.post('/tasks/enqueue', { project_id: p, description: 'refactor the router' });
    expect(queued.status).toBe(201);
    expect(queued.body).toMatchObject({ status: 'pending', source: 'enqueue', description: 'refactor the router' });
    expect((await tenant.http.get(`/projects/${p}/slot-readiness`)).body.queued_tasks).toBe(1);
  });

  test('the free plan limits slots per machine and live machines per project (402 PLAN_LIMIT); the paid plan allows more', async () => {
    const tenant = await tenantClient(run.testApp, 'machine-plans');
    const p = await createProject(tenant.http, 'Machines');
    const register = (name: string, slots: number) => callToolOnce(run.testApp.url, tenant.token, 'register_machine', { project_id: p, name, slots });
    expect((await register('big', 3)).structured).toMatchObject({ code: 'PLAN_LIMIT', plan: 'free', limit: 2 });
    expect((await register('a', 2)).isError).toBe(false);
    expect((await register('b', 1)).isError).toBe(false);
    expect((await register('c', 1)).structured).toMatchObject({ code: 'PLAN_LIMIT', plan: 'free', limit: 2 });
    expect((await tenant.http.get(`/projects/${p}/registered-machines`)).body.map((m: { name: string }) => m.name)).toEqual(['a', 'b']);
    await planOf(tenant.tenant_id, 'paid');
    expect((await register('c', 8)).value).toMatchObject({ name: 'c', slots: 8 });
  });

  test("another tenant's project, run, experiment, machine and worktree ids answer 404 like unknown ones, and nothing of theirs changes", async () => {
    const owner = await tenantClient(run.testApp, 'owner');
    await planOf(owner.tenant_id, 'paid');
    const intruder = await tenantClient(run.testApp, 'intruder');
    await planOf(intruder.tenant_id, 'paid');
    const p = await createProject(owner.http, 'Private');
    const tool = async (token: string, name: string, args: Record<string, unknown>) => callToolOnce(run.testApp.url, token, name, args);
    const machine = (await tool(owner.token, 'register_machine', { project_id: p, name: 'owner-box', slots: 2 })).value;
    const experiment = (await tool(owner.token, 'record_experiment', { project_id: p, name: 'secret experiment' })).value;
    const runRow = (await tool(owner.token, 'record_run', { project_id: p, description: 'secret run', machine_id: machine.id, experiment_id: experiment.id })).value;
    const worktree = (await owner.http.post(`/projects/${p}/worktrees`, { path: '/srv/secret', machine_id: machine.id })).body;
    await owner.http.post('/tasks/enqueue', { project_id: p, description: 'secret task' });
    const theirs = await createProject(intruder.http, 'Theirs');
    const unknown = randomUUID();
    const probes: [string, Promise<{ status: number }>][] = [];
    for (const project of [p, theirs]) {
      const base = `/projects/${project}`;
      probes.push(
        [`runs/${runRow.id}`, intruder.http.get(`${base}/runs/${runRow.id}`)],
        [`experiment events`, intruder.http.get(`${base}/experiments/${experiment.id}/events`)],
        [`experiment runs`, intruder.http.get(`${base}/experiments/${experiment.id}/runs`)],
        [`delete machine`, intruder.http.delete(`${base}/registered-machines/${machine.id}`)],
        [`delete worktree`, intruder.http.delete(`${base}/worktrees/${worktree.id}`)],
      );
    }
    for (const path of ['runs', 'experiments', 'registered-machines', 'worktrees', 'worktrees/pending_cleanup', 'slot-readiness', 'orphan_reaper']) {
      probes.push([path, intruder.http.get(`/projects/${p}/${path}`)]);
    }
    probes.push(['sweep', intruder.http.post(`/projects/${p}/worktrees/sweep`)]);
    probes.push(['toggle', intruder.http.post(`/projects/${p}/orphan_reaper/toggle`)]);
    probes.push(['new worktree', intruder.http.post(`/projects/${p}/worktrees`, { path: '/x' })]);
    probes.push(['worktree on their machine', intruder.http.post(`/projects/${theirs}/worktrees`, { path: '/x', machine_id: machine.id })]);
    probes.push(['unknown run', intruder.http.get(`/projects/${theirs}/runs/${unknown}`)]);
    const answered = await Promise.all(probes.map(async ([label, res]) => [label, (await res).status] as const));
    expect(answered).toEqual(probes.map(([label]) => [label, 404]));
    for (const [name, args] of [
      ['machine_heartbeat', { project_id: p, machine_id: machine.id }],
      ['machine_heartbeat', { project_id: theirs, machine_id: machine.id }],
      ['claim_queued_task', { project_id: theirs, machine_id: machine.id }],
      ['finish_run', { project_id: theirs, run_id: runRow.id, status: 'failed' }],
      ['record_experiment_event', { project_id: theirs, experiment_id: experiment.id, kind: 'x', body: 'y' }],
      ['record_run', { project_id: theirs, description: 'x', experiment_id: experiment.id }],
    ] as const) {
      const res = await tool(intruder.token, name, args);
      expect([name, res.isError, res.structured?.code]).toEqual([name, true, expect.stringMatching(/NOT_FOUND$/)]);
    }
    const mine = await callToolOnce(run.testApp.url, owner.token, 'claim_queued_task', { project_id: p, machine_id: machine.id });
    expect(mine.value).toMatchObject({ claimed: true, task: { description: 'secret task' } });
    expect((await owner.http.get(`/projects/${p}/runs/${runRow.id}`)).body).toMatchObject({ status: 'running', description: 'secret run' });
    expect((await owner.http.get(`/projects/${p}/registered-machines`)).body).toHaveLength(1);
    expect((await owner.http.get(`/projects/${p}/worktrees`)).body).toEqual([expect.objectContaining({ id: worktree.id, status: 'active' })]);
    expect((await owner.http.get(`/projects/${p}/orphan_reaper`)).body.enabled).toBe(true);
  });
});
