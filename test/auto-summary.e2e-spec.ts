import { randomUUID } from 'node:crypto';
import { bindParams, sqlTimestamp, TenantDb } from '../libs/tenancy';
import { Clock } from '../src/common/clock';
import { AutoSummarySweeper, SETTLE_MS } from '../src/modules/time/auto-summary.sweeper';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { Instances, startInstances } from './support/instances';
import { createProject } from './support/projects';
import { describePostgres } from './support/suites';
import { inTenantDb } from './support/tenant-db';
import { sleep } from './support/wait';

describe.each(eachBackend())('the auto-summary on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a cycle digests what changed in each active project, once per interval; a quiet project gets none', async () => {
    const p = await createProject(run.http, 'Digest');
    const quiet = await createProject(run.http, 'Quiet');
    const parked = await createProject(run.http, 'Parked');
    expect((await run.http.patch(`/projects/${parked}/organization`, { status: 'parked' })).status).toBe(200);
    const s = (await run.http.post('/sessions/register', { project_id: p, name: 'worker' })).body.id;
    await run.http.post('/sessions/register', { project_id: parked, name: 'parked worker' });
    await run.http.post('/tasks', { project_id: p, session_id: s, description: 'Wrote the parser\nwith details' });
    await run.http.post('/tasks', { project_id: p, session_id: s, description: 'Still thinking', status: 'pending' });
    const item = (await run.http.post(`/projects/${p}/sprint-items`, { title: 'Ship the parser', version: 'v1' })).body;
    await run.http.post(`/projects/${p}/sprint-items/${item.id}/claim`, { session_id: s });
    await run.http.post(`/projects/${p}/decisions-pinned`, { title: 'Parse with a PEG', body: '' });

    const sweeper = run.testApp.app.get(AutoSummarySweeper);
    /** Runs `work` with Baton's clock reading `at`. */
    const at = async <T>(time: number, work: () => Promise<T>): Promise<T> => {
      const clock = jest.spyOn(run.testApp.app.get(Clock), 'now').mockImplementation(() => new Date(time));
      try {
        return await work();
      } finally {
        clock.mockRestore();
      }
    };
    // A cycle's window ends 30 s before it runs: this one runs 31 s from now, so the window ends just after the writes above.
    const cycleAt = Date.now() + SETTLE_MS + 1_000;
    // The default interval is 600 s: this first cycle covers 600 s, the next one is not due yet.
    const [first, again] = await at(cycleAt, async () => [await sweeper.runOnce(), await sweeper.runOnce()]);
    expect(first).toBeGreaterThanOrEqual(1);
    expect(again).toBe(0);
    const summary = (await run.http.get(`/projects/${p}/stats`)).body.latest_summary;
    expect(summary.body.split('\n')).toEqual([
      expect.stringMatching(/^Since .*: 1 tasks done, 1 sprint items moved, 1 decisions pinned, 1 sessions started\.$/),
      '- done: Wrote the parser',
      '- item in_progress: Ship the parser',
      '- decision: Parse with a PEG',
    ]);
    expect(Date.parse(summary.until) - Date.parse(summary.since)).toBe(600_000);
    expect(Date.parse(summary.until)).toBe(cycleAt - SETTLE_MS);
    expect((await run.http.get(`/projects/${quiet}/stats`)).body.latest_summary).toBeNull();
    expect((await run.http.get(`/projects/${parked}/stats`)).body.latest_summary).toBeNull();

    // A write stamped 10 s before that cycle ran but committed after it had read (here: a task
    // whose stamp is set back after the cycle) is digested by the next cycle, not lost between two.
    const late = (await run.http.post('/tasks', { project_id: p, session_id: s, description: 'Committed late' })).body.id;
    const dialect = run.testApp.app.get(TenantDb).dialect;
    await inTenantDb(run.testApp, run.token, (m) =>
      m.query(...bindParams(dialect, 'UPDATE tasks SET updated_at = $1 WHERE id = $2', [sqlTimestamp(dialect, new Date(cycleAt - 10_000)), late])),
    );
    expect(await at(cycleAt + 600_000, () => sweeper.runOnce())).toBe(1);
    const second = (await run.http.get(`/projects/${p}/stats`)).body.latest_summary;
    expect(second.since).toBe(summary.until);
    expect(second.body.split('\n')).toEqual([expect.stringMatching(/: 1 tasks done, 0 sprint items moved, 0 decisions pinned, 0 sessions started\.$/), '- done: Committed late']);
  });
});

describePostgres('the auto-summary with two processes on one database', () => {
  let instances: Instances;

  beforeAll(async () => {
    instances = await startInstances(2, { hosted: false, env: { SERVICE_AUTO_SUMMARY_INTERVAL: '1', SERVICE_SWEEP_INTERVAL_SECONDS: '0' } });
  }, 70_000);
  afterAll(async () => {
    await instances?.stop();
  });

  test('runs once per interval, not once per process: consecutive summaries are an interval apart and cover time without overlap', async () => {
    const [a, b] = instances.servers.map((s) => new Http(s.url));
    const p = await createProject(a, 'Busy');
    const s = (await a.post('/sessions/register', { project_id: p, name: 'worker' })).body.id;
    const summaries = () =>
      instances.db.query<{ since: Date; until: Date; counts: string }>('SELECT since, until, counts FROM t_local.project_summaries WHERE project_id = $1 ORDER BY until', [p]);
    const started = Date.now();
    // A task every 100 ms, through both processes, until five summaries were written. A loaded
    // machine may leave a cycle with nothing to digest, and such a cycle writes no summary.
    let posted = 0;
    while ((await summaries()).length < 5 && Date.now() - started < 20_000) {
      expect((await (posted % 2 ? a : b).post('/tasks', { project_id: p, session_id: s, description: `task ${posted} ${randomUUID().slice(0, 4)}` })).status).toBe(201);
      posted += 1;
      await sleep(100);
    }
    await sleep(1_200);
    const elapsed = Date.now() - started;
    const rows = await summaries();
    // One process alone makes at most one a second; both running every interval would make about two.
    expect(rows.length).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000) + 1);
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].until.getTime() - rows[i - 1].until.getTime()).toBeGreaterThanOrEqual(900);
      // Windows follow one another without overlap: each begins where a cycle ended.
      expect(rows[i].since.getTime()).toBeGreaterThanOrEqual(rows[i - 1].until.getTime());
    }
    // No task is digested twice.
    const digested = rows.reduce((sum, r) => sum + (JSON.parse(r.counts) as { tasks_done: number }).tasks_done, 0);
    expect(digested).toBeLessThanOrEqual(posted);
  }, 40_000);
});
