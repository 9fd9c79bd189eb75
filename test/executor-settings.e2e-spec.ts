import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { setPlan } from './support/plans';
import { createProject } from './support/projects';

/** The executor settings of a project that change what executors may do: max_parallel, test_command, auto_worktrees, require_merge_approval. */
describe.each(eachBackend())('executor settings that take effect on %s', (_name, backend) => {
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
  const settings = async (p: string, body: Record<string, unknown>) => expect((await run.http.patch(`/projects/${p}/settings`, body)).status).toBe(200);
  const running = async (p: string) => (await run.http.get(`/projects/${p}/runs?status=running`)).body as { id: string; test_command: string | null }[];

  test('max_parallel 2 with 5 enqueued tasks: racing executors never have 3 running; the rest wait in the queue and every task is run; test_command travels with each run', async () => {
    const p = await createProject(run.http, 'Parallel');
    await settings(p, { executor_config: { max_parallel: 2, test_command: 'npm test -- --ci' } });
    const machine = await tool('register_machine', { project_id: p, name: 'big-box', slots: 8 });
    for (let i = 1; i <= 5; i++) expect((await run.http.post('/tasks/enqueue', { project_id: p, description: `task ${i}` })).status).toBe(201);
    const clients = await Promise.all([0, 1, 2, 3, 4].map(() => connectMcp(run.testApp.url, run.token)));
    const done: string[] = [];
    try {
      for (let round = 0; done.length < 5 && round < 10; round++) {
        const claims = await Promise.all(clients.map((c) => callTool(c, 'claim_queued_task', { project_id: p, machine_id: machine.id })));
        expect(claims.every((c) => !c.isError)).toBe(true);
        const now = await running(p);
        expect(now.length).toBeLessThanOrEqual(2);
        if (round === 0) {
          expect(claims.filter((c) => c.value.claimed)).toHaveLength(2);
          const waiting = claims.find((c) => !c.value.claimed)!.value;
          expect(waiting).toEqual({
            claimed: false,
            task: null,
            run: null,
            reason: 'the project already runs 2 executor runs, its executor_config.max_parallel of 2',
          });
          const refused = await callTool(mcp, 'record_run', { project_id: p, description: 'one more' });
          expect([refused.isError, refused.structured?.code]).toEqual([true, 'MAX_PARALLEL_REACHED']);
        }
        expect(now.every((r) => r.test_command === 'npm test -- --ci')).toBe(true);
        // One run finishes: exactly one place opens for the next round.
        const finished = now[0];
        await tool('finish_run', { project_id: p, run_id: finished.id, status: 'succeeded' });
        done.push(finished.id);
      }
      // The last one still running finishes too.
      for (const r of await running(p)) {
        await tool('finish_run', { project_id: p, run_id: r.id, status: 'succeeded' });
        done.push(r.id);
      }
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
    expect(done).toHaveLength(5);
    const tasks = (await run.http.get(`/projects/${p}/tasks?limit=50`)).body as { description: string; status: string }[];
    expect(tasks.filter((t) => t.description.startsWith('task ')).map((t) => t.status)).toEqual(['done', 'done', 'done', 'done', 'done']);
    // Without a cap, no limit but the machine's slots.
    await settings(p, { executor_config: { test_command: 'npm test -- --ci' } });
    for (let i = 0; i < 3; i++) await tool('record_run', { project_id: p, description: `free ${i}` });
    expect(await running(p)).toHaveLength(3);
  });

  test("auto_worktrees: a worker session's claim of a sprint item gives it a worktree record; an interactive session's does not; off gives none", async () => {
    const p = await createProject(run.http, 'Worktrees');
    const worker = (await run.http.post('/sessions/register', { project_id: p, name: 'w', kind: 'worker' })).body.id;
    const person = (await run.http.post('/sessions/register', { project_id: p, name: 'p' })).body.id;
    const item = async (title: string) => (await run.http.post(`/projects/${p}/sprint-items`, { version: 'v1', title })).body;
    const claim = (id: string, session: string) => run.http.post(`/projects/${p}/sprint-items/${id}/claim`, { session_id: session });

    const before = await item('Cache the parser output');
    expect((await claim(before.id, worker)).body.worktree).toBeUndefined();
    await settings(p, { auto_worktrees: true });
    const first = await item('Rewrite the importer');
    const claimed = await claim(first.id, worker);
    expect(claimed.body.worktree).toMatchObject({
      session_id: worker,
      sprint_item_id: first.id,
      path: `.worktrees/${first.slug}`,
      branch: `baton/${first.slug}`,
      status: 'active',
    });
    const humanItem = await item('Design the settings page');
    expect((await claim(humanItem.id, person)).body.worktree).toBeUndefined();
    const listed = (await run.http.get(`/projects/${p}/worktrees`)).body as { sprint_item_id: string }[];
    expect(listed.map((w) => w.sprint_item_id)).toEqual([first.id]);
  });

  test("auto_worktrees: a worker session's next-claim gets a worktree record whichever layer turns it on (the project's settings, the workspace layer); off gives none", async () => {
    const p = await createProject(run.http, 'Next worktrees');
    const worker = (await run.http.post('/sessions/register', { project_id: p, name: 'w', kind: 'worker' })).body.id;
    const person = (await run.http.post('/sessions/register', { project_id: p, name: 'p' })).body.id;
    const item = async (title: string) => (await run.http.post(`/projects/${p}/sprint-items`, { version: 'v1', title })).body;
    const claimNext = async (session: string) => {
      const answer = await run.http.post(`/projects/${p}/sprint-items/claim`, { session_id: session });
      expect([answer.status, answer.body.claimed]).toEqual([200, true]);
      return answer.body as { item: { id: string; slug: string }; worktree?: { sprint_item_id: string; path: string } };
    };
    const put = async (path: string, fields: Record<string, unknown>) => expect((await run.http.send('PUT', path, { fields })).status).toBe(200);

    await item('Cache the parser output');
    expect((await claimNext(worker)).worktree).toBeUndefined();
    const expected: string[] = [];
    const expectWorktree = async (title: string) => {
      const made = await item(title);
      const claimed = await claimNext(worker);
      expect(claimed.worktree).toMatchObject({ sprint_item_id: made.id, path: `.worktrees/${made.slug}` });
      expected.push(made.id);
    };
    await settings(p, { auto_worktrees: true });
    await expectWorktree('Rewrite the importer');
    await item('Design the settings page');
    expect((await claimNext(person)).worktree).toBeUndefined();
    await settings(p, { auto_worktrees: null });
    await put('/profile-layers/workspace/singleton', { auto_worktrees: true });
    try {
      await expectWorktree('Split the billing module');
      // Named but off at the project: no record.
      await settings(p, { auto_worktrees: false });
      await item('Tidy the changelog');
      expect((await claimNext(worker)).worktree).toBeUndefined();
    } finally {
      await run.http.delete('/profile-layers/workspace/singleton');
    }
    const listed = (await run.http.get(`/projects/${p}/worktrees`)).body as { sprint_item_id: string }[];
    expect(listed.map((w) => w.sprint_item_id).sort()).toEqual([...expected].sort());
  });

  test('require_merge_approval: a merge waits for a HITL approval; without it a merge is approved at once; a dismissal declines', async () => {
    const p = await createProject(run.http, 'Merges');
    const session = (await run.http.post('/sessions/register', { project_id: p, name: 'merger', kind: 'worker' })).body.id;
    const worktree = async (path: string) => (await run.http.post(`/projects/${p}/worktrees`, { path, branch: path, session_id: session })).body.id as string;
    const merge = (id: string) => run.http.post(`/projects/${p}/worktrees/${id}/merge`, {});

    const free = await merge(await worktree('wt/free'));
    expect([free.status, free.body.approval_required, free.body.worktree.merge_status]).toEqual([200, false, 'approved']);

    await settings(p, { require_merge_approval: true });
    const gated = await worktree('wt/gated');
    const waiting = await merge(gated);
    expect([waiting.status, waiting.body.approval_required, waiting.body.worktree.merge_status]).toEqual([202, true, 'awaiting_approval']);
    const again = await callTool(mcp, 'merge_worktree', { project_id: p, worktree_id: gated, session_id: session });
    expect(again.value).toMatchObject({ hitl_request_id: waiting.body.hitl_request_id, worktree: { merge_status: 'awaiting_approval' } });
    const request = (await run.http.get(`/hitl/${waiting.body.hitl_request_id}`)).body;
    expect(request).toMatchObject({ status: 'pending', session_id: session, question: expect.stringContaining('wt/gated') });
    expect((await run.http.patch(`/hitl/${request.id}`, { answer: 'approve' })).status).toBe(200);
    const merged = (await run.http.get(`/projects/${p}/worktrees`)).body.find((w: { id: string }) => w.id === gated);
    expect(merged.merge_status).toBe('approved');

    const refused = await worktree('wt/refused');
    const asked = await merge(refused);
    expect((await run.http.patch(`/hitl/${asked.body.hitl_request_id}`, { action: 'dismiss' })).status).toBe(200);
    expect((await run.http.get(`/projects/${p}/worktrees`)).body.find((w: { id: string }) => w.id === refused).merge_status).toBe('declined');
  });

  test('execution_mode: interactive holds enqueued work for a person, who dispatches it; autonomous (the default) dispatches it at once', async () => {
    const p = await createProject(run.http, 'Dispatch');
    const machine = await tool('register_machine', { project_id: p, name: 'box', slots: 2 });
    const auto = await run.http.post('/tasks/enqueue', { project_id: p, description: 'dispatched at once' });
    expect(auto.body.status).toBe('pending');
    expect((await tool('claim_queued_task', { project_id: p, machine_id: machine.id })).task.id).toBe(auto.body.id);

    await settings(p, { execution_mode: 'interactive' });
    const held = await run.http.post('/tasks/enqueue', { project_id: p, description: 'waits for a person' });
    expect([held.status, held.body.status]).toEqual([201, 'backlog']);
    expect(await tool('claim_queued_task', { project_id: p, machine_id: machine.id })).toEqual({
      claimed: false,
      task: null,
      run: null,
      reason: 'no task is dispatched: 1 queued task(s) wait for a person to dispatch them (execution_mode interactive)',
    });
    // The person dispatches it: the executor takes it.
    expect((await run.http.patch(`/tasks/${held.body.id}`, { status: 'pending' })).body.status).toBe('pending');
    const taken = await tool('claim_queued_task', { project_id: p, machine_id: machine.id });
    expect([taken.claimed, taken.task.id]).toEqual([true, held.body.id]);
  });
});
