import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { PROFILE_TEST_ENV } from './support/profile-client';
import { sprintClient } from './support/sprint-client';

describe.each(eachBackend())('verification before completion on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;
  const post = (projectId: string, ref: string, action: string, body: unknown = {}) => run.http.post(`/projects/${projectId}/sprint-items/${ref}/${action}`, body);
  const setMode = async (projectId: string, mode: string) => {
    const saved = await run.http.send('PUT', `/profile-layers/project/${projectId}`, { fields: { claim_verification_mode: mode } });
    expect(saved.status).toBe(200);
  };
  /** A project in `mode` with an item claimed by a worker session, and a second session to verify it. */
  const claimed = async (name: string, mode?: string) => {
    const projectId = await api.project(name);
    if (mode) await setMode(projectId, mode);
    const worker = await api.session(projectId, { name: 'worker' });
    const reviewer = await api.session(projectId, { name: 'reviewer' });
    const item = await api.item(projectId, { title: `Ship the ${name.toLowerCase()} importer` });
    expect((await api.claim(projectId, item.id, { session_id: worker.id })).body.claimed).toBe(true);
    return { projectId, worker, reviewer, item };
  };

  beforeAll(async () => {
    run = await backend.start(PROFILE_TEST_ENV);
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('strict: completion is refused until another session passes the item; the claimer cannot pass its own work', async () => {
    const { projectId, worker, reviewer, item } = await claimed('Strict', 'strict');
    const refused = await post(projectId, item.id, 'complete', { session_id: worker.id, notes: 'done' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'VERIFICATION_REQUIRED', claimed_by_session_id: worker.id });
    expect(refused.body.detail).toMatch(/verify/);

    const own = await post(projectId, item.id, 'verify', { session_id: worker.id, passed: true });
    expect(own).toMatchObject({ status: 409, body: { code: 'SELF_VERIFICATION' } });
    expect((await post(projectId, item.id, 'complete', { session_id: worker.id })).body.code).toBe('VERIFICATION_REQUIRED');

    const passed = await post(projectId, item.id, 'verify', { session_id: reviewer.id, passed: true, note: 'ran the import on the sample files' });
    expect(passed.status).toBe(200);
    expect(passed.body).toMatchObject({
      verified: true,
      verification: { item_id: item.id, session_id: reviewer.id, session_name: 'reviewer', passed: true, note: 'ran the import on the sample files' },
      item: { status: 'in_progress', claimed_by_session_id: worker.id },
    });
    const done = await post(projectId, item.id, 'complete', { session_id: worker.id, notes: 'merged' });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'done' });
    expect(done.body.warnings).toBeUndefined();
    expect(done.body.notes).toContain(`Verified by session reviewer (${reviewer.id}): ran the import on the sample files`);
  });

  test('a failed verification is kept with its note, the item stays in progress, and it does not count as a pass', async () => {
    const { projectId, worker, reviewer, item } = await claimed('Failing', 'strict');
    const failed = await post(projectId, item.id, 'verify', { session_id: reviewer.id, passed: false, note: 'the CSV header row is imported as data' });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ verified: false, verification: { passed: false, note: 'the CSV header row is imported as data' }, item: { status: 'in_progress' } });
    // The claimer may report its own failure; only a pass needs another session.
    expect((await post(projectId, item.id, 'verify', { session_id: worker.id, passed: false, note: 'found it too' })).status).toBe(200);
    expect((await post(projectId, item.id, 'complete', { session_id: worker.id })).body.code).toBe('VERIFICATION_REQUIRED');
    const got = (await api.get(projectId, item.id)).body;
    expect(got.status).toBe('in_progress');
    expect(got.notes).toContain(`Verification failed by session reviewer (${reviewer.id}): the CSV header row is imported as data`);
    const history = await run.http.get(`/projects/${projectId}/sprint-items/${item.id}/verifications`);
    expect(history.status).toBe(200);
    expect(history.body.map((v: { session_name: string; passed: boolean }) => [v.session_name, v.passed])).toEqual([
      ['worker', false],
      ['reviewer', false],
    ]);
    // A later pass by the reviewer is what counts.
    expect((await post(projectId, item.id, 'verify', { session_id: reviewer.id, passed: true })).body.verified).toBe(true);
    expect((await post(projectId, item.id, 'complete', { session_id: worker.id })).body.status).toBe('done');
  });

  test('advisory completes with a warning when nobody else verified; off completes as before', async () => {
    const advisory = await claimed('Advisory', 'advisory');
    const done = await post(advisory.projectId, advisory.item.id, 'complete', { session_id: advisory.worker.id });
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('done');
    expect(done.body.warnings).toEqual([expect.stringMatching(/without verification/)]);

    const verified = await claimed('Advisory Verified', 'advisory');
    await post(verified.projectId, verified.item.id, 'verify', { session_id: verified.reviewer.id, passed: true });
    expect((await post(verified.projectId, verified.item.id, 'complete', { session_id: verified.worker.id })).body.warnings).toBeUndefined();

    const off = await claimed('Default Off');
    const plain = await post(off.projectId, off.item.id, 'complete', { session_id: off.worker.id });
    expect(plain.status).toBe(200);
    expect(plain.body.warnings).toBeUndefined();
  });

  test('a stricter workspace layer makes a project strict', async () => {
    const { projectId, worker, item } = await claimed('Workspace Strict');
    expect((await run.http.send('PUT', '/profile-layers/workspace/singleton', { fields: { claim_verification_mode: 'strict' } })).status).toBe(200);
    try {
      const effective = await run.http.get(`/projects/${projectId}/effective-profile`);
      expect(effective.body.fields.claim_verification_mode).toMatchObject({ value: 'strict', source: 'workspace' });
      expect((await post(projectId, item.id, 'complete', { session_id: worker.id })).body.code).toBe('VERIFICATION_REQUIRED');
      // The project cannot loosen it without a reason.
      const loosen = await run.http.send('PUT', `/profile-layers/project/${projectId}`, { fields: { claim_verification_mode: 'off' } });
      expect(loosen.body.code).toBe('LOOSENING_NOT_ALLOWED');
    } finally {
      await run.http.delete('/profile-layers/workspace/singleton');
    }
  });

  test('bad input is refused with a detail and changes nothing; a pending item has nothing to verify', async () => {
    const { projectId, reviewer, item } = await claimed('Bad Verify', 'strict');
    for (const body of [{ passed: true }, { session_id: reviewer.id }, { session_id: 'nope', passed: true }, { session_id: reviewer.id, passed: 'yes' }]) {
      const res = await post(projectId, item.id, 'verify', body);
      expect(res.status).toBe(400);
      expect(typeof res.body.detail).toBe('string');
    }
    expect((await run.http.get(`/projects/${projectId}/sprint-items/${item.id}/verifications`)).body).toEqual([]);
    const pending = await api.item(projectId, { title: 'Untouched pending work' });
    expect((await post(projectId, pending.id, 'verify', { session_id: reviewer.id, passed: true })).body.code).toBe('NOTHING_TO_VERIFY');
  });

  test('over MCP: verify_sprint_item, then complete; the verification is on the AI-log', async () => {
    const { projectId, worker, reviewer, item } = await claimed('Mcp Verify', 'strict');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const refused = await callTool(client, 'complete_sprint_item', { project_id: projectId, item_id: item.slug, session_id: worker.id });
      expect(refused.structured).toMatchObject({ code: 'VERIFICATION_REQUIRED' });
      const own = await callTool(client, 'verify_sprint_item', { project_id: projectId, item_id: item.slug, session_id: worker.id, passed: true });
      expect(own.structured).toMatchObject({ code: 'SELF_VERIFICATION' });
      const passed = await callTool(client, 'verify_sprint_item', { project_id: projectId, item_id: item.slug, session_id: reviewer.id, passed: true, note: 'looks right' });
      expect(passed.isError).toBe(false);
      expect(passed.structured).toMatchObject({ verified: true });
      expect((await callTool(client, 'complete_sprint_item', { project_id: projectId, item_id: item.slug, session_id: worker.id })).value).toMatchObject({ status: 'done' });
    } finally {
      await client.close();
    }
    const log = await run.http.get(`/projects/${projectId}/timeline?kind=sprint_verification`);
    expect(log.status).toBe(200);
    expect(log.body.events).toEqual([expect.objectContaining({ kind: 'sprint_verification', session_id: reviewer.id, summary: `sprint item ${item.slug} verified: looks right` })]);
  });
});
