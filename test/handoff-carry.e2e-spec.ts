import { Session } from '../src/modules/sessions/session.entity';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { Handoff } from '../src/modules/handoff/handoff.entity';
import { eachBackend, RunningBackend } from './support/backends';
import { callToolOnce } from './support/mcp-client';
import { inTenantDb } from './support/tenant-db';
import { setPlan } from './support/plans';

/** A handoff that passes the baton: the author's work waits for the next session, which takes it over whole. */
describe.each(eachBackend())('handoffs that carry work on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    await setPlan(run, 'paid');
  });
  afterAll(async () => {
    await run?.stop();
  });

  const tool = (name: string, args: Record<string, unknown>) => callToolOnce(run.testApp.url, run.token, name, args);

  /** A project where session `author` holds an in-progress sprint item, a task and a file lock. */
  async function busyProject(name: string) {
    const projectId: string = (await run.http.post('/projects', { name })).body.id;
    const author = (await run.http.post('/sessions/register', { project_id: projectId, name: 'author' })).body.id as string;
    await run.http.post(`/projects/${projectId}/sprint-batch`, { op: 'create', items: [{ title: 'Carried item', version: 'v1', force: true }] });
    const claim = await run.http.post(`/projects/${projectId}/sprint-items/claim`, { session_id: author });
    expect(claim.body.claimed).toBe(true);
    const task = (await run.http.post('/tasks/enqueue', { project_id: projectId, description: 'carried task' })).body.id as string;
    expect((await run.http.post(`/projects/${projectId}/tasks/claim`, { session_id: author, task_id: task })).body.claimed).toBe(true);
    expect((await tool('claim_file', { session_id: author, file_path: 'src/carried.ts' })).isError).toBe(false);
    return { projectId, author, itemId: claim.body.item.id as string, taskId: task };
  }

  test('carry moves the work to the handoff, the author ends without a stall, and a new session takes it over by id', async () => {
    const { projectId, author, itemId, taskId } = await busyProject('Baton pass');
    const generated = await run.http.post(`/projects/${projectId}/handoff`, { session_id: author, carry: true, summary: 'Half done' });
    expect(generated.status).toBe(201);
    expect(generated.body.carried).toEqual({ sprint_items: 1, tasks: 1, file_locks: 1 });
    const handoffId: string = generated.body.handoff_id;

    // Held for the handoff: nobody else can take the file or the item meanwhile.
    const other = (await run.http.post('/sessions/register', { project_id: projectId, name: 'bystander' })).body.id as string;
    const locked = await tool('claim_file', { session_id: other, file_path: './src/carried.ts' });
    expect(locked.structured).toMatchObject({ code: 'FILE_LOCKED' });
    expect(locked.text).toMatch(/handoff-/);
    expect((await run.http.post(`/projects/${projectId}/sprint-items/claim`, { session_id: other })).body.claimed).toBe(false);

    // The author ends: nothing is re-queued, no stall is counted, the handoff still matches the board.
    expect((await run.http.post(`/sessions/${author}/close`)).status).toBe(200);
    const item = (await run.http.get(`/projects/${projectId}/sprint-items/${itemId}`)).body;
    expect(item).toMatchObject({ status: 'in_progress', stall_count: 0 });
    expect((await run.http.post(`/projects/${projectId}/handoff/accept`, { handoff_id: handoffId })).body).toMatchObject({ status: 'ok', valid: true });

    // A new session is told, without a token, and takes it over by id.
    const fresh = await run.http.post(`/projects/${projectId}/start-session`, { name: 'curious' });
    expect(fresh.body.waiting_handoff).toMatchObject({ handoff_id: handoffId, from_session_name: 'author', carries: { sprint_items: 1, tasks: 1, file_locks: 1 } });
    expect(fresh.body.context_block).toContain(`start_session with handoff_id ${handoffId}`);
    const next = await run.http.post(`/projects/${projectId}/start-session`, { name: 'successor', handoff_id: handoffId });
    expect(next.status).toBe(201);
    expect(next.body.handoff).toMatchObject({ id: handoffId, carried: { sprint_items: 1, tasks: 1, file_locks: 1 } });
    expect(next.body.waiting_handoff).toBeNull();
    const successor: string = next.body.session_id;
    expect((await run.http.get(`/projects/${projectId}/sprint-items/${itemId}`)).body).toMatchObject({ status: 'in_progress', claimed_by_session_id: successor });
    expect((await run.http.get(`/tasks/${taskId}`)).body).toMatchObject({ status: 'in_progress', claimed_by: successor });
    const locks = (await run.http.get(`/projects/${projectId}/file-locks`)).body;
    expect(locks).toEqual([expect.objectContaining({ file_path: 'src/carried.ts', session_id: successor })]);
    // The carrier is gone; the handoff is used up.
    const sessions = (await run.http.get(`/projects/${projectId}/sessions`)).body as { name: string }[];
    expect(sessions.map((s) => s.name).filter((n) => n.startsWith('handoff-'))).toEqual([]);
    const again = await run.http.post(`/projects/${projectId}/start-session`, { handoff_id: handoffId });
    expect(again.body.code).toBe('HANDOFF_ALREADY_CONSUMED');
  });

  test('two sessions racing for one carried handoff: one gets the work, the other is refused', async () => {
    const { projectId, author } = await busyProject('Race for the baton');
    const handoffId = (await run.http.post(`/projects/${projectId}/handoff`, { session_id: author, carry: true })).body.handoff_id;
    const [x, y] = await Promise.all(['x', 'y'].map((name) => run.http.post(`/projects/${projectId}/start-session`, { name, handoff_id: handoffId })));
    const won = [x, y].filter((r) => r.status === 201);
    expect(won).toHaveLength(1);
    expect(won[0].body.handoff.carried).toEqual({ sprint_items: 1, tasks: 1, file_locks: 1 });
    expect([x, y].filter((r) => r.status !== 201).map((r) => r.body.code)).toEqual(['HANDOFF_ALREADY_CONSUMED']);
  });

  test('a carried handoff nobody accepts releases the work at expiry, without counting a stall', async () => {
    const { projectId, author, itemId } = await busyProject('Dropped baton');
    const handoffId = (await run.http.post(`/projects/${projectId}/handoff`, { session_id: author, carry: true })).body.handoff_id;
    // The handoff's time passes.
    const past = new Date(Date.now() - 1000);
    await inTenantDb(run.testApp, run.token, async (m) => {
      const handoff = await m.findOneByOrFail(Handoff, { id: handoffId });
      await m.update(Handoff, { id: handoffId }, { expires_at: past });
      await m.update(Session, { id: handoff.carrier_session_id as string }, { created_at: new Date(past.getTime() - 3 * 86400 * 1000) });
    });
    expect(await run.testApp.app.get(SessionsSweeper).sweepOnce()).toBeGreaterThanOrEqual(1);
    expect((await run.http.get(`/projects/${projectId}/sprint-items/${itemId}`)).body).toMatchObject({ status: 'pending', stall_count: 0, claimed_by_session_id: null });
    expect((await run.http.get(`/projects/${projectId}/file-locks`)).body).toEqual([]);
    const fresh = await run.http.post(`/projects/${projectId}/start-session`, {});
    expect(fresh.body.waiting_handoff).toBeNull();
  });

  test('carry needs the session whose work it carries, and a live one', async () => {
    const { projectId, author } = await busyProject('No baton');
    const without = await run.http.post(`/projects/${projectId}/handoff`, { carry: true });
    expect([without.status, without.body.detail]).toEqual([400, 'carry needs session_id: the session whose work the handoff carries']);
    expect((await run.http.post(`/projects/${projectId}/handoff`, { session_id: author, carry: 'yes' })).status).toBe(400);
    await run.http.post(`/sessions/${author}/close`);
    const closed = await run.http.post(`/projects/${projectId}/handoff`, { session_id: author, carry: true });
    expect(closed.status).toBe(409);
    // Without carry the work stays with its session, as before.
    const plain = await run.http.post(`/projects/${projectId}/handoff`, {});
    expect(plain.body.carried).toBeNull();
  });
});
