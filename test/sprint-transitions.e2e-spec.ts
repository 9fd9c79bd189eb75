import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';

describe.each(eachBackend())('sprint item transitions on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;
  const post = (projectId: string, ref: string, action: string, body: unknown = {}) => run.http.post(`/projects/${projectId}/sprint-items/${ref}/${action}`, body);

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('complete stamps completed_at, stores notes and links a task; a finished item cannot be finished again', async () => {
    const projectId = await api.project('Complete');
    const item = await api.item(projectId, { title: 'Write the changelog' });
    const taskId = randomUUID();
    const done = await post(projectId, item.id, 'complete', { notes: 'Merged in #42', task_id: taskId });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'done', notes: 'Merged in #42', task_id: taskId });
    expect(Date.parse(done.body.completed_at)).toBeGreaterThanOrEqual(Date.parse(item.added_at));
    for (const [action, body] of [
      ['complete', {}],
      ['fail', {}],
      ['skip', {}],
      ['push', { to_version: 'v2' }],
    ] as const) {
      const again = await post(projectId, item.id, action, body);
      expect({ action, status: again.status, code: again.body.code }).toEqual({ action, status: 409, code: 'ITEM_TERMINAL' });
    }
    expect((await api.get(projectId, item.id)).body.completed_at).toBe(done.body.completed_at);
  });

  test('required_notes=1 refuses completion without notes or a task_id, and accepts either', async () => {
    const projectId = await api.project('Evidence');
    const a = await api.item(projectId, { title: 'Audit the permissions', required_notes: 1 });
    const b = await api.item(projectId, { title: 'Rotate the signing keys', required_notes: true });
    for (const body of [{}, { notes: '   ' }, { notes: '' }]) {
      const refused = await post(projectId, a.id, 'complete', body);
      expect(refused).toMatchObject({ status: 400, body: { code: 'EVIDENCE_REQUIRED' } });
    }
    // Notes written earlier by a planner are not evidence of the work.
    await run.http.patch(`/projects/${projectId}/sprint-items/${a.id}`, { notes: 'Plan: check every role' });
    expect((await post(projectId, a.id, 'complete', {})).body.code).toBe('EVIDENCE_REQUIRED');
    expect((await api.get(projectId, a.id)).body.status).toBe('pending');
    const withNotes = await post(projectId, a.id, 'complete', { notes: 'All 14 roles checked; report in docs/audit.md' });
    expect(withNotes.body).toMatchObject({ status: 'done', notes: 'Plan: check every role\n\nAll 14 roles checked; report in docs/audit.md' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const refused = await callTool(client, 'complete_sprint_item', { project_id: projectId, item_id: b.slug });
      expect(refused.structured).toMatchObject({ code: 'EVIDENCE_REQUIRED' });
      const task = randomUUID();
      expect((await callTool(client, 'complete_sprint_item', { project_id: projectId, item_id: b.slug, task_id: task })).value).toMatchObject({ status: 'done', task_id: task });
    } finally {
      await client.close();
    }
  });

  test('fail and skip keep the reason in the notes; push needs to_version and sets pushed_to', async () => {
    const projectId = await api.project('Fail Skip Push');
    const f = await api.item(projectId, { title: 'Flaky integration' });
    const s = await api.item(projectId, { title: 'Optional polish' });
    const p = await api.item(projectId, { title: 'Big redesign' });
    expect((await post(projectId, f.id, 'fail', { reason: 'the vendor API is down' })).body).toMatchObject({ status: 'failed', notes: 'Failed: the vendor API is down' });
    expect((await post(projectId, s.id, 'skip', {})).body).toMatchObject({ status: 'skipped', notes: null });
    expect((await post(projectId, p.id, 'push', {})).body.detail).toMatch(/to_version/);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const pushed = await callTool(client, 'push_sprint_item', { project_id: projectId, item_id: p.id, to_version: 'v3', reason: 'too big for this sprint' });
      expect(pushed.value).toMatchObject({
        status: 'pushed',
        pushed_to: 'v3',
        version: 'v1',
        notes: expect.stringMatching(/^Pushed to v3 as [a-z0-9-]+: too big for this sprint$/),
      });
      expect(pushed.value.completed_at).toEqual(expect.any(String));
      expect((await callTool(client, 'skip_sprint_item', { project_id: projectId, item_id: p.id })).structured?.code).toBe('ITEM_TERMINAL');
      expect((await callTool(client, 'fail_sprint_item', { project_id: projectId, item_id: f.id, reason: 'again' })).structured?.code).toBe('ITEM_TERMINAL');
    } finally {
      await client.close();
    }
  });

  test('provisional completion: provisional_complete without completed_at, claimable by a verifier, then done', async () => {
    const projectId = await api.project('Provisional');
    const worker = await api.session(projectId, { name: 'builder', kind: 'worker' });
    const verifier = await api.session(projectId, { name: 'verifier', kind: 'worker' });
    const item = await api.item(projectId, { title: 'Migrate the billing tables' });
    await api.claim(projectId, item.id, { session_id: worker.id });
    const provisional = await post(projectId, item.id, 'complete', { provisional: true, notes: 'migrated; needs a check', session_id: worker.id });
    expect(provisional.body).toMatchObject({ status: 'provisional_complete', completed_at: null });
    expect((await run.http.get(`/projects/${projectId}/sprint/pending_count`)).body.by_status.provisional_complete).toBe(1);
    // The next-claimable pick hands out fresh work only; a verifier claims it by id.
    expect((await api.claim(projectId, undefined, { session_id: verifier.id })).body.claimed).toBe(false);
    expect((await api.claim(projectId, item.id, { session_id: verifier.id })).body.item).toMatchObject({ status: 'in_progress', claimed_by_session_id: verifier.id });
    const done = await post(projectId, item.id, 'complete', { notes: 'verified row counts', session_id: verifier.id });
    expect(done.body).toMatchObject({ status: 'done' });
    expect(done.body.completed_at).toEqual(expect.any(String));
  });

  test('complete with another session than the live claimer is refused with the holder named; the claimer completes it', async () => {
    const projectId = await api.project('Claim Mismatch');
    const holder = await api.session(projectId, { name: 'holder' });
    const other = await api.session(projectId, { name: 'other' });
    const item = await api.item(projectId, { title: 'Owned by the holder' });
    await api.claim(projectId, item.id, { session_id: holder.id });
    const refused = await post(projectId, item.id, 'complete', { session_id: other.id, notes: 'not mine' });
    expect(refused).toMatchObject({ status: 409, body: { code: 'CLAIM_MISMATCH', claimed_by_session_id: holder.id } });
    expect((await post(projectId, item.id, 'fail', { session_id: other.id })).body.code).toBe('CLAIM_MISMATCH');
    expect((await post(projectId, item.id, 'complete', { session_id: holder.id })).body.status).toBe('done');
  });

  test("a dependency's failure: failure_mode continue leaves the dependent claimable; stop fails it (and its own stop dependents) with a note", async () => {
    const projectId = await api.project('Failure Modes');
    const worker = await api.session(projectId, { kind: 'worker' });
    const parent = await api.item(projectId, { title: 'Provision the database' });
    const cont = await api.item(projectId, { title: 'Write docs anyway', depends_on: parent.id });
    const stop = await api.item(projectId, { title: 'Seed the database', depends_on: parent.id, failure_mode: 'stop' });
    const stopChild = await api.item(projectId, { title: 'Load fixtures', depends_on: stop.id, failure_mode: 'stop' });
    const contChild = await api.item(projectId, { title: 'Report what happened', depends_on: stop.id });
    expect((await api.claim(projectId, cont.id, { session_id: worker.id })).body.code).toBe('DEPENDENCY_UNMET');
    await post(projectId, parent.id, 'fail', { reason: 'no quota' });
    expect((await api.get(projectId, cont.id)).body.status).toBe('pending');
    expect((await api.claim(projectId, cont.id, { session_id: worker.id })).body.claimed).toBe(true);
    const stopped = (await api.get(projectId, stop.id)).body;
    expect(stopped).toMatchObject({ status: 'failed' });
    expect(stopped.completed_at).toEqual(expect.any(String));
    expect(stopped.notes).toBe(`Failed: it depends on ${parent.slug}, which failed, and its failure_mode is stop.`);
    expect((await api.get(projectId, stopChild.id)).body).toMatchObject({
      status: 'failed',
      notes: `Failed: it depends on ${stop.slug}, which failed, and its failure_mode is stop.`,
    });
    expect((await api.get(projectId, contChild.id)).body.status).toBe('pending');
    expect((await api.claim(projectId, contChild.id, { session_id: worker.id })).body.claimed).toBe(true);
    const stopOnFailed = await api.item(projectId, { title: 'Late stop item', depends_on: parent.id, failure_mode: 'stop' });
    expect((await api.claim(projectId, stopOnFailed.id, { session_id: worker.id })).body).toMatchObject({ code: 'DEPENDENCY_UNMET', depends_on_status: 'failed' });
  });

  test('add_subtask: owner human or ai, the parent version inherited; all subtasks done rolls the parent up to done, a failed one makes it indeterminate', async () => {
    const projectId = await api.project('Subtasks');
    const worker = await api.session(projectId, { kind: 'worker' });
    const parent = await api.item(projectId, { title: 'Launch the beta', version: 'v5', sprint_name: 'Beta' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const human = await callTool(client, 'add_subtask', { project_id: projectId, parent_id: parent.slug, title: 'Email the beta testers', owner: 'human' });
      expect(human.value).toMatchObject({ parent_id: parent.id, owner: 'human', version: 'v5', sprint_name: 'Beta', status: 'pending' });
      const ai = await callTool(client, 'add_subtask', { project_id: projectId, parent_id: parent.id, title: 'Flip the feature flag' });
      expect(ai.value.owner).toBe('ai');
      expect((await api.claim(projectId, human.value.id, { session_id: worker.id })).body.code).toBe('HUMAN_ONLY');
      await post(projectId, ai.value.id, 'complete', {});
      expect((await api.get(projectId, parent.id)).body.status).toBe('pending');
      await post(projectId, human.value.id, 'skip', { reason: 'testers already know' });
      const rolled = (await api.get(projectId, parent.id)).body;
      expect(rolled).toMatchObject({ status: 'done', notes: 'Done: all 2 subtasks finished.' });
      expect(rolled.completed_at).toEqual(expect.any(String));

      const other = await api.item(projectId, { title: 'Harden the API' });
      const s1 = (await run.http.post(`/projects/${projectId}/sprint-items/${other.id}/subtasks`, { title: 'Rate limit writes' })).body;
      const s2 = (await run.http.post(`/projects/${projectId}/sprint-items/${other.id}/subtasks`, { title: 'Validate every header', owner: 'ai' })).body;
      expect(s1.owner).toBe('ai');
      await post(projectId, s1.id, 'fail', {});
      expect((await api.get(projectId, other.id)).body.status).toBe('pending');
      await post(projectId, s2.id, 'complete', {});
      const indeterminate = (await api.get(projectId, other.id)).body;
      expect(indeterminate).toMatchObject({ status: 'indeterminate', completed_at: null, notes: 'Indeterminate: a subtask failed.' });
      // Out of indeterminate: a claim by id, or any finishing route.
      expect((await api.claim(projectId, other.id, { session_id: worker.id })).body.item.status).toBe('in_progress');
      // The worker holds it: a person finishing it overrides the claim, with a reason.
      expect((await post(projectId, other.id, 'complete', { notes: 'fixed by hand', force: true, force_reason: 'done by hand meanwhile' })).body.status).toBe('done');

      // A pushed subtask leaves the parent as it is: a person decides.
      const third = await api.item(projectId, { title: 'Polish onboarding' });
      const t1 = (await run.http.post(`/projects/${projectId}/sprint-items/${third.id}/subtasks`, { title: 'Shorter signup form' })).body;
      const t2 = (await run.http.post(`/projects/${projectId}/sprint-items/${third.id}/subtasks`, { title: 'Animated welcome tour' })).body;
      await post(projectId, t1.id, 'complete', {});
      await post(projectId, t2.id, 'push', { to_version: 'v6' });
      expect((await api.get(projectId, third.id)).body).toMatchObject({ status: 'pending', notes: null });
    } finally {
      await client.close();
    }
  });

  test('finishing an item another live session holds needs that session, or force with a reason that is kept', async () => {
    const projectId = await api.project('Held by another');
    const holder = await api.session(projectId, { name: 'holder' });
    const other = await api.session(projectId, { name: 'other' });
    const item = await api.item(projectId, { title: 'Contested work' });
    expect((await api.claim(projectId, item.id, { session_id: holder.id })).body.claimed).toBe(true);
    for (const [action, body] of [
      ['complete', {}],
      ['complete', { session_id: other.id }],
      ['fail', { reason: 'x' }],
      ['skip', { session_id: other.id }],
      ['push', { to_version: 'v9' }],
    ] as const) {
      const refused = await post(projectId, item.id, action, body);
      expect({ action, body, status: refused.status, code: refused.body.code, holder: refused.body.claimed_by_session_id }).toEqual({
        action,
        body,
        status: 409,
        code: 'CLAIM_MISMATCH',
        holder: holder.id,
      });
    }
    const noReason = await post(projectId, item.id, 'complete', { force: true });
    expect([noReason.status, noReason.body.detail]).toEqual([400, 'force needs force_reason: say why the item is finished over its gate']);
    const forced = await post(projectId, item.id, 'complete', { session_id: other.id, force: true, force_reason: 'holder went quiet; work verified', notes: 'merged' });
    expect(forced.status).toBe(200);
    expect(forced.body.status).toBe('done');
    expect(forced.body.notes).toContain(
      `Complete with force: it was held by session holder (${holder.id}), finished by session ${other.id}; reason: holder went quiet; work verified`,
    );
    // The holder itself needs no force.
    const mine = await api.item(projectId, { title: 'Own work' });
    await api.claim(projectId, mine.id, { session_id: holder.id });
    expect((await post(projectId, mine.id, 'complete', { session_id: holder.id })).body.status).toBe('done');
  });

  test('completing an item whose dependency is unfinished needs force with a reason', async () => {
    const projectId = await api.project('Out of order');
    const first = await api.item(projectId, { title: 'Schema first' });
    const second = await api.item(projectId, { title: 'Then the API', depends_on: first.id });
    const refused = await post(projectId, second.id, 'complete', {});
    expect([refused.status, refused.body.code]).toEqual([409, 'DEPENDENCY_UNMET']);
    const forced = await post(projectId, second.id, 'complete', { force: true, force_reason: 'shipped together' });
    expect(forced.body).toMatchObject({ status: 'done', notes: expect.stringContaining('reason: shipped together') });
    // Skipping or failing it needs no force: that is not the work done.
    const third = await api.item(projectId, { title: 'Later polish', depends_on: first.id });
    expect((await post(projectId, third.id, 'skip', {})).body.status).toBe('skipped');
  });

  test('a pushed item goes on in its target sprint as a pending copy', async () => {
    const projectId = await api.project('Push forward');
    const item = await api.item(projectId, { title: 'Dark mode', priority: 'high', group: 'ui', notes: 'needs design', touches_resources: ['file:src/theme.ts'] });
    const pushed = await post(projectId, item.id, 'push', { to_version: 'v2', reason: 'next sprint' });
    expect(pushed.body).toMatchObject({ status: 'pushed', pushed_to: 'v2' });
    const inTarget = (await run.http.get(`/projects/${projectId}/sprint-items?version=v2`)).body as Record<string, unknown>[];
    expect(inTarget).toEqual([
      expect.objectContaining({
        title: 'Dark mode',
        version: 'v2',
        status: 'pending',
        priority: 'high',
        group: 'ui',
        touches_resources: ['file:src/theme.ts'],
        claimed_by_session_id: null,
      }),
    ]);
    expect(pushed.body.notes).toContain(`Pushed to v2 as ${inTarget[0].slug}: next sprint`);
  });

  test('a wave that finishes gets one immutable completion record; later changes do not alter it', async () => {
    const projectId = await api.project('Wave Records');
    const a = await api.item(projectId, { title: 'Wave item alpha', force: true, wave: 'wave-1' });
    const b = await api.item(projectId, { title: 'Wave item bravo', force: true, wave: 'wave-1' });
    await api.item(projectId, { title: 'Unrelated second lane', wave: 'wave-2' });
    const summary = () => run.http.get(`/projects/${projectId}/wave-summary/wave-1`);
    expect((await summary()).body).toMatchObject({ code: 'WAVE_NOT_COMPLETE', active_count: 2 });
    expect((await summary()).status).toBe(404);
    expect((await run.http.get(`/projects/${projectId}/wave-summary/wave-9`)).body.code).toBe('WAVE_NOT_FOUND');
    await post(projectId, a.id, 'complete', {});
    expect((await summary()).body.active_count).toBe(1);
    await post(projectId, b.id, 'fail', { reason: 'timeout' });
    const record = await summary();
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      project_id: projectId,
      wave: 'wave-1',
      item_count: 2,
      counts: { done: 1, failed: 1 },
      items: [
        { id: a.id, slug: a.slug, title: 'Wave item alpha', status: 'done' },
        { id: b.id, slug: b.slug, title: 'Wave item bravo', status: 'failed' },
      ],
    });
    // Reopen, rename and finish again: the record written at completion stays as it was.
    await run.http.patch(`/projects/${projectId}/sprint-items/${b.id}`, { status: 'pending', title: 'Wave item bravo renamed' });
    await post(projectId, b.id, 'complete', {});
    await api.item(projectId, { title: 'Late addition', wave: 'wave-1' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const viaTool = await callTool(client, 'get_wave_summary', { project_id: projectId, wave_id: 'wave-1' });
      expect(viaTool.value).toEqual(record.body);
    } finally {
      await client.close();
    }
  });
});
