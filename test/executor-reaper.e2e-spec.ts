import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OrphanReaperSweeper } from '../src/modules/executor/orphan-reaper.sweeper';
import { RegisteredMachine } from '../src/modules/executor/registered-machine.entity';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { Instances, startInstances } from './support/instances';
import { setPlan } from './support/plans';
import { createProject } from './support/projects';
import { Http } from './support/http';
import { tenantClient } from './support/tenant-client';
import { inTenantDb, transactionsDuring } from './support/tenant-db';
import { describePostgres } from './support/suites';
import { sleep, waitUntil } from './support/wait';

/** The background orphan reaper: what it marks, and that it runs once per interval however many instances share the database. */
describe.each(eachBackend())('the orphan reaper on %s', (_name, backend) => {
  let run: RunningBackend;
  let mcp: Client;

  beforeAll(async () => {
    run = await backend.start({
      SERVICE_SWEEP_INTERVAL_SECONDS: '0',
      SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '1',
      SERVICE_MACHINE_STALE_SECONDS: '4',
      SERVICE_ORPHAN_SESSION_IDLE_SECONDS: '2',
      SERVICE_MCP_RATE_LIMIT: '1000000',
    });
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

  /** A project with a machine running a queued task in a worktree, and a second machine kept alive with its own run. */
  async function busyProject(name: string, reaper: 'on' | 'off') {
    const p = await createProject(run.http, name);
    const turned = (await run.http.post(`/projects/${p}/orphan_reaper/toggle`, { enabled: reaper === 'on' })).body;
    const silent = await tool('register_machine', { project_id: p, name: 'silent' });
    const alive = await tool('register_machine', { project_id: p, name: 'alive', slots: 2 });
    await run.http.post('/tasks/enqueue', { project_id: p, description: 'rebuild the index' });
    const claim = await tool('claim_queued_task', { project_id: p, machine_id: silent.id });
    const worktree = (await run.http.post(`/projects/${p}/worktrees`, { path: '/srv/wt/index', machine_id: silent.id })).body;
    const kept = await tool('record_run', { project_id: p, machine_id: alive.id, description: 'still going' });
    const session = (await run.http.post('/sessions/register', { project_id: p })).body.id as string;
    const ofSession = await tool('record_run', { project_id: p, machine_id: alive.id, session_id: session, description: 'for a session' });
    await run.http.post(`/sessions/${session}/close`, {});
    const quiet = (await run.http.post('/sessions/register', { project_id: p })).body.id as string;
    const quietTree = (await run.http.post(`/projects/${p}/worktrees`, { path: '/srv/wt/quiet', session_id: quiet })).body;
    return { p, alive, claim, worktree, kept, session, ofSession, quiet, quietTree, turned };
  }

  test('runs and worktrees of a machine that stopped its heartbeat are marked; a live machine and a project with the reaper off are left alone', async () => {
    const on = await busyProject('Reaped', 'on');
    const off = await busyProject('Not reaped', 'off');
    expect(off.turned.enabled).toBe(false);
    const inFlight = new Set<Promise<unknown>>();
    const beats = setInterval(() => {
      for (const x of [on, off]) {
        const beat = callTool(mcp, 'machine_heartbeat', { project_id: x.p, machine_id: x.alive.id }).catch(() => undefined);
        inFlight.add(beat);
        void beat.finally(() => inFlight.delete(beat));
      }
    }, 400);
    try {
      const orphaned = await waitUntil(
        async () => {
          const r = (await run.http.get(`/projects/${on.p}/runs/${on.claim.run.id}`)).body;
          return r.status === 'orphaned' && r;
        },
        20_000,
        'the silent machine run orphaned',
      );
      expect(orphaned.summary).toMatch(/^machine silent has sent no heartbeat since /);
      await expectReaped(on, off);
    } finally {
      clearInterval(beats);
      await Promise.all(inFlight);
    }
  });

  /** What the reaper left behind, checked while the live machine keeps beating so it never goes stale mid-check. */
  async function expectReaped(on: Awaited<ReturnType<typeof busyProject>>, off: Awaited<ReturnType<typeof busyProject>>) {
    expect((await run.http.get(`/tasks/${on.claim.task.id}`)).body.status).toBe('pending');
    const pending = await waitUntil(
      async () => {
        const list = (await run.http.get(`/projects/${on.p}/worktrees/pending_cleanup`)).body;
        return list.length === 2 && list;
      },
      10_000,
      'the silent session worktree marked',
    );
    expect(pending.map((w: { id: string; cleanup_reason: string }) => [w.id, w.cleanup_reason])).toEqual([
      [on.worktree.id, expect.stringMatching(/^machine silent has sent no heartbeat since /)],
      [on.quietTree.id, expect.stringMatching(new RegExp(`^session ${on.quiet} has been silent since `))],
    ]);
    expect((await run.http.get(`/projects/${on.p}/runs/${on.kept.id}`)).body.status).toBe('running');
    expect((await run.http.get(`/projects/${on.p}/runs/${on.ofSession.id}`)).body).toMatchObject({ status: 'orphaned', summary: `session ${on.session} is closed` });
    expect((await run.http.get(`/projects/${on.p}/orphan_reaper`)).body).toMatchObject({
      enabled: true,
      orphaned_runs_total: 2,
      flagged_worktrees_total: 2,
      last_run_at: expect.any(String),
    });
    expect((await run.http.get(`/projects/${off.p}/runs/${off.claim.run.id}`)).body.status).toBe('running');
    expect((await run.http.get(`/projects/${off.p}/runs/${off.ofSession.id}`)).body.status).toBe('running');
    expect((await run.http.get(`/projects/${off.p}/worktrees/pending_cleanup`)).body).toEqual([]);
    expect((await run.http.get(`/projects/${off.p}/orphan_reaper`)).body).toMatchObject({ enabled: false, run_count: off.turned.run_count, last_run_at: off.turned.last_run_at });
    expect((await run.http.get(`/projects/${on.p}/registered-machines`)).body.map((m: { name: string; alive: boolean }) => [m.name, m.alive])).toEqual([
      ['silent', false],
      ['alive', true],
    ]);
  }
});

describe.each(hostedBackend())('the orphan reaper over many workspaces on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    // No timer: the test runs each pass itself.
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0', SERVICE_MACHINE_STALE_SECONDS: '60' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a pass opens a transaction only in a project with a running run or an active worktree, and still counts every pass', async () => {
    const workspace = async (name: string) => {
      const t = await tenantClient(run.testApp, name);
      const projectId = (await t.http.post('/projects', { name })).body.id as string;
      const tenantId = (await run.testApp.app.get(TenantResolver).resolve(`Bearer ${t.token}`)).tenantId;
      return { ...t, projectId, tenantId };
    };
    const quiet = await workspace('Nothing running');
    const busy = await workspace('A run on a machine');
    await setPlan(run, 'paid');
    const mcp = await connectMcp(run.testApp.url, busy.token);
    let machine: { id: string };
    let running: { id: string };
    try {
      machine = (await callTool(mcp, 'register_machine', { project_id: busy.projectId, name: 'builder' })).value;
      running = (await callTool(mcp, 'record_run', { project_id: busy.projectId, machine_id: machine.id, description: 'a long build' })).value;
    } finally {
      await mcp.close();
    }
    const sweeper = run.testApp.app.get(OrphanReaperSweeper);
    // The first pass makes each project's state row; the machine is alive, so nothing is marked.
    await sweeper.passOnce();
    expect((await busy.http.get(`/projects/${busy.projectId}/runs/${running.id}`)).body.status).toBe('running');
    await inTenantDb(run.testApp, busy.token, (m) => m.update(RegisteredMachine, { id: machine.id }, { last_heartbeat_at: new Date(Date.now() - 3600_000) }));

    const opened = await transactionsDuring(run.testApp, () => sweeper.passOnce());
    expect(opened.filter((id) => id === quiet.tenantId)).toEqual([]);
    expect(opened.filter((id) => id === busy.tenantId)).toHaveLength(1);
    expect((await busy.http.get(`/projects/${busy.projectId}/runs/${running.id}`)).body).toMatchObject({
      status: 'orphaned',
      summary: expect.stringMatching(/^machine builder has sent no heartbeat since /),
    });
    expect((await quiet.http.get(`/projects/${quiet.projectId}/orphan_reaper`)).body).toMatchObject({ run_count: 2, last_run_at: expect.any(String) });
    expect((await busy.http.get(`/projects/${busy.projectId}/orphan_reaper`)).body).toMatchObject({ run_count: 2, orphaned_runs_total: 1 });
  });
});

describePostgres('the orphan reaper with two processes on one Postgres database', () => {
  let instances: Instances;

  beforeAll(async () => {
    instances = await startInstances(2, { hosted: false, env: { SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '1' } });
  }, 70_000);
  afterAll(async () => {
    await instances?.stop();
  });

  test('each project is reaped once per interval, not once per process', async () => {
    const http = new Http(instances.servers[0].url);
    const p = await createProject(http, 'Shared');
    const started = Date.now();
    await sleep(6000);
    const state = (await new Http(instances.servers[1].url).get(`/projects/${p}/orphan_reaper`)).body;
    const elapsed = Date.now() - started;
    // Both processes try every second; between them the project is reaped about once a second
    // (each reaping it would make about twice as many passes).
    expect(state.run_count).toBeGreaterThanOrEqual(4);
    expect(state.run_count).toBeLessThanOrEqual(Math.floor(elapsed / 950) + 1);
  }, 30_000);
});
