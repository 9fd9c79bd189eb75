import { AutoSummarySweeper } from '../src/modules/time/auto-summary.sweeper';
import { eachBackend, RunningBackend } from './support/backends';
import { createProject } from './support/projects';
import { sleep } from './support/wait';

const PEOPLE = 'Ship the importer by March.\n\nKeep the CLI stable.';

describe.each(eachBackend())('goal mode auto and the auto-summary cycle on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    // A one-second interval: each test waits out an interval before the next cycle.
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_AUTO_SUMMARY_INTERVAL: '1' });
  });
  afterAll(() => run?.stop());

  const cycle = async () => {
    await sleep(1_100);
    await run.testApp.app.get(AutoSummarySweeper).runOnce();
  };

  test('an auto goal gets its status AUTO BLOCK refreshed in place, as a minor write; a manual goal is never touched', async () => {
    const auto = await createProject(run.http, 'Auto');
    const manual = await createProject(run.http, 'Manual');
    for (const p of [auto, manual]) expect((await run.http.post(`/projects/${p}/goal`, { content: PEOPLE })).status).toBe(200);
    expect((await run.http.patch(`/projects/${auto}/goal-mode`, { mode: 'auto' })).status).toBe(200);
    for (const p of [auto, manual]) {
      const s = (await run.http.post('/sessions/register', { project_id: p, name: 'worker' })).body.id;
      const doing = (await run.http.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Parse the CSV header' })).body;
      await run.http.post(`/projects/${p}/sprint-items/${doing.id}/claim`, { session_id: s });
      const done = (await run.http.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Write the fixtures' })).body;
      await run.http.post(`/projects/${p}/sprint-items/${done.id}/complete`, { notes: 'done' });
      await run.http.post(`/projects/${p}/hitl`, { session_id: s, question: 'Which delimiter?' });
      await run.http.post('/tasks', { project_id: p, session_id: s, description: 'Read the spec of the format' });
    }
    await cycle();

    const goal = (await run.http.get(`/projects/${auto}/goal`)).body;
    expect(goal.version).toBe(1);
    expect(goal.content).toBe(
      [
        PEOPLE,
        '',
        '<!-- AUTO BLOCK: status -->',
        'Status: 1 items done, 1 in progress, 0 blocked, 1 open HITL requests.',
        'In progress:',
        '- Parse the CSV header',
        'Last tasks:',
        '- Read the spec of the format',
        '<!-- END AUTO BLOCK -->',
      ].join('\n'),
    );
    expect((await run.http.get(`/projects/${auto}/goal-history`)).body).toEqual([expect.objectContaining({ version: 1, content: PEOPLE })]);
    const untouched = (await run.http.get(`/projects/${manual}/goal`)).body;
    expect([untouched.version, untouched.content]).toEqual([1, PEOPLE]);

    // The next cycle rewrites the block where it stands, once; people's text stays as written.
    const s2 = (await run.http.post('/sessions/register', { project_id: auto, name: 'second' })).body.id;
    await run.http.post('/tasks', { project_id: auto, session_id: s2, description: 'Chose the comma' });
    await cycle();
    const refreshed = (await run.http.get(`/projects/${auto}/goal`)).body;
    expect(refreshed.version).toBe(1);
    expect(refreshed.content.startsWith(`${PEOPLE}\n\n<!-- AUTO BLOCK: status -->`)).toBe(true);
    expect(refreshed.content.match(/AUTO BLOCK: status/g)).toHaveLength(1);
    expect(refreshed.content).toContain('Last tasks:\n- Chose the comma\n- Read the spec of the format\n');
    expect((await run.http.get(`/projects/${manual}/goal`)).body.content).toBe(PEOPLE);
  });
});
