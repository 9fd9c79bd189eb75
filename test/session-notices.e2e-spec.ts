import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Clock } from '../src/common/clock';
import { OrphanReaperSweeper } from '../src/modules/executor/orphan-reaper.sweeper';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { setPlan } from './support/plans';
import { sprintClient } from './support/sprint-client';

describe.each(eachBackend())('the holder is told what it lost, on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;
  let client: Client;
  const beat = async (sessionId: string) => {
    const res = await run.http.post(`/sessions/${sessionId}/heartbeat`);
    expect(res.status).toBe(200);
    return res.body.notices as Record<string, unknown>[];
  };
  const claimFile = (sessionId: string, filePath: string, extra: Record<string, unknown> = {}) =>
    callTool(client, 'claim_file', { session_id: sessionId, file_path: filePath, ...extra });
  /** Runs `work` with Baton's clock `ms` ahead. */
  const later = async <T>(ms: number, work: () => Promise<T>): Promise<T> => {
    const spy = jest.spyOn(run.testApp.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + ms));
    try {
      return await work();
    } finally {
      spy.mockRestore();
    }
  };

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    // Queued tasks (POST /tasks/enqueue) are a paid feature when hosted.
    await setPlan(run, 'paid');
    api = sprintClient(run);
    client = await connectMcp(run.testApp.url, run.token, 'http', 'all');
  });
  afterAll(async () => {
    await client?.close();
    await run?.stop();
  });

  test('a forced lock take is reported once to the old holder, never to others, and a message wakes it', async () => {
    const projectId = await api.project('Forced Take');
    const holder = await api.session(projectId, { name: 'holder' });
    const taker = await api.session(projectId, { name: 'taker' });
    const bystander = await api.session(projectId, { name: 'bystander' });
    expect((await claimFile(holder.id, 'src/parser.ts')).value).toMatchObject({ claimed: true });
    // The holder waits for a message meanwhile.
    const waiting = run.http.post(`/projects/${projectId}/messages/receive`, { session_id: holder.id, wait_seconds: 30 });
    const taken = await claimFile(taker.id, 'src/parser.ts', { force: true });
    expect(taken.value).toMatchObject({ claimed: true, session_id: taker.id });
    expect(taken.value.notices).toBeUndefined();

    const woke = await waiting;
    expect(woke.status).toBe(200);
    expect(woke.body.messages).toEqual([
      expect.objectContaining({ from: 'baton', body: expect.stringMatching(/^\[lock_taken\] your lock on src\/parser\.ts was taken by session taker/) }),
    ]);

    const notices = await beat(holder.id);
    expect(notices).toEqual([
      expect.objectContaining({ kind: 'lock_taken', file_path: 'src/parser.ts', taken_by_session_id: taker.id, taken_by_session_name: 'taker', at: expect.any(String) }),
    ]);
    expect(await beat(holder.id)).toEqual([]);
    expect(await beat(taker.id)).toEqual([]);
    expect(await beat(bystander.id)).toEqual([]);
    // Nobody else got a message either.
    expect((await run.http.post(`/projects/${projectId}/messages/receive`, { session_id: bystander.id })).body.messages).toEqual([]);
  });

  test('any MCP tool answer naming the session carries its notice, once; a person freeing the file from the dashboard counts too', async () => {
    const projectId = await api.project('Tool Answer');
    const holder = await api.session(projectId, { name: 'holder' });
    await claimFile(holder.id, 'docs/guide.md');
    const freed = await run.http.post(`/projects/${projectId}/file-locks/release`, { file_path: 'docs/guide.md' });
    expect(freed.status).toBe(200);
    const note = await callTool(client, 'add_session_note', { session_id: holder.id, body: 'halfway through the guide' });
    expect(note.isError).toBe(false);
    expect(note.value.notices).toEqual([expect.objectContaining({ kind: 'lock_taken', file_path: 'docs/guide.md', taken_by_session_id: null })]);
    const again = await callTool(client, 'add_session_note', { session_id: holder.id, body: 'and now?' });
    expect(again.value.notices).toBeUndefined();
    expect(await beat(holder.id)).toEqual([]);
  });

  test('a lapsed lock: told when another session claims the file, or by the sweeper when nobody does', async () => {
    const projectId = await api.project('Lapsed');
    const holder = await api.session(projectId, { name: 'holder' });
    const next = await api.session(projectId, { name: 'next' });
    await claimFile(holder.id, 'src/a.ts', { ttl_seconds: 60 });
    await claimFile(holder.id, 'src/b.ts', { ttl_seconds: 60 });
    const twoMinutes = 2 * 60 * 1000;
    await later(twoMinutes, async () => {
      // Both sessions are live at that time.
      await beat(holder.id);
      await beat(next.id);
      expect((await claimFile(next.id, 'src/a.ts')).value).toMatchObject({ claimed: true });
      await run.testApp.app.get(SessionsSweeper).sweepOnce();
      const notices = await beat(holder.id);
      // Oldest first: b.ts lapsed (at its expiry) before next took a.ts (now).
      expect(notices).toEqual([
        expect.objectContaining({ kind: 'lock_expired', file_path: 'src/b.ts', taken_by_session_id: null, detail: expect.stringMatching(/claim the file again/) }),
        expect.objectContaining({ kind: 'lock_expired', file_path: 'src/a.ts', taken_by_session_id: next.id, taken_by_session_name: 'next' }),
      ]);
      await run.testApp.app.get(SessionsSweeper).sweepOnce();
      expect(await beat(holder.id)).toEqual([]);
      expect(await beat(next.id)).toEqual([]);
    });
  });

  test('claim_lost: an item put back by a forced PATCH, or finished with force by another session', async () => {
    const projectId = await api.project('Claims Lost');
    const holder = await api.session(projectId, { name: 'holder' });
    const other = await api.session(projectId, { name: 'other' });
    const first = await api.item(projectId, { title: 'Rewrite the tokenizer' });
    const second = await api.item(projectId, { title: 'Document the query language' });
    await api.claim(projectId, first.id, { session_id: holder.id });
    await api.claim(projectId, second.id, { session_id: holder.id });
    expect((await run.http.patch(`/projects/${projectId}/sprint-items/${first.id}`, { status: 'pending', force: true })).status).toBe(200);
    const forced = await run.http.post(`/projects/${projectId}/sprint-items/${second.id}/complete`, { session_id: other.id, force: true, force_reason: 'done on another branch' });
    expect(forced.status).toBe(200);
    const notices = await beat(holder.id);
    expect(notices).toEqual([
      expect.objectContaining({ kind: 'claim_lost', item_id: first.id, item: first.slug, taken_by_session_id: null }),
      expect.objectContaining({ kind: 'claim_lost', item_id: second.id, item: second.slug, taken_by_session_id: other.id, taken_by_session_name: 'other' }),
    ]);
    expect(await beat(other.id)).toEqual([]);
    const messages = (await run.http.post(`/projects/${projectId}/messages/receive`, { session_id: holder.id })).body.messages as { body: string }[];
    expect(messages.map((m) => m.body.split(']')[0])).toEqual(['[claim_lost', '[claim_lost']);
  });

  test('claim_lost for a queued task: requeued by the orphan reaper or by a machine deregistered, told once to the session that held it only, and a message wakes it', async () => {
    const projectId = await api.project('Queued Work');
    const holder = await api.session(projectId, { name: 'holder' });
    const bystander = await api.session(projectId, { name: 'bystander' });
    const tool = async (name: string, args: Record<string, unknown>) => {
      const result = await callTool(client, name, args);
      expect(result.isError).toBe(false);
      return result.value;
    };
    const enqueue = async (description: string) => {
      const res = await run.http.post('/tasks/enqueue', { project_id: projectId, description });
      expect(res.status).toBe(201);
      return res.body.id as string;
    };
    const silent = await tool('register_machine', { project_id: projectId, name: 'silent' });
    const unplugged = await tool('register_machine', { project_id: projectId, name: 'unplugged' });
    const machineOnly = await tool('register_machine', { project_id: projectId, name: 'machine-only' });
    const reaped = await enqueue('rebuild the search index');
    const deregistered = await enqueue('migrate the billing tables');
    const noSession = await enqueue('rotate the logs');
    expect((await tool('claim_queued_task', { project_id: projectId, machine_id: silent.id, session_id: holder.id })).task.id).toBe(reaped);
    expect((await tool('claim_queued_task', { project_id: projectId, machine_id: unplugged.id, session_id: holder.id })).task.id).toBe(deregistered);
    // A run of a machine alone: nobody to tell when it is requeued.
    expect((await tool('claim_queued_task', { project_id: projectId, machine_id: machineOnly.id })).task.id).toBe(noSession);

    // Released by someone else: a person deregisters the machine running the holder's task.
    expect((await run.http.delete(`/projects/${projectId}/registered-machines/${unplugged.id}`)).status).toBe(204);
    const first = await tool('add_session_note', { session_id: holder.id, body: 'still on the index' });
    expect(first.notices).toEqual([
      {
        kind: 'claim_lost',
        file_path: null,
        item_id: null,
        item: null,
        task_id: deregistered,
        task: 'migrate the billing tables',
        taken_by_session_id: null,
        taken_by_session_name: null,
        at: expect.any(String),
        detail: expect.stringMatching(new RegExp(`^you no longer hold task ${deregistered} \\(migrate the billing tables\\): it was put back in the queue`)),
      },
    ]);
    expect((await run.http.get(`/tasks/${deregistered}`)).body).toMatchObject({ status: 'pending', claimed_by: null });
    const told = (await run.http.post(`/projects/${projectId}/messages/receive`, { session_id: holder.id })).body.messages as { from: string; body: string; seq: number }[];
    expect(told).toEqual([expect.objectContaining({ from: 'baton', body: expect.stringContaining(`[claim_lost] you no longer hold task ${deregistered}`) })]);

    // The orphan reaper: the silent machine stops beating; the holder waits for a message meanwhile.
    const tenMinutes = 10 * 60 * 1000;
    const waiting = later(tenMinutes, async () => {
      await beat(holder.id);
      await beat(bystander.id);
      const woke = run.http.post(`/projects/${projectId}/messages/receive`, { session_id: holder.id, ack_through: told[0].seq, wait_seconds: 30 });
      expect(await run.testApp.app.get(OrphanReaperSweeper).passOnce()).toBeGreaterThanOrEqual(1);
      return woke;
    });
    const woke = await waiting;
    expect(woke.status).toBe(200);
    expect((woke.body.messages as { from: string; body: string }[]).map((m) => [m.from, m.body])).toEqual([
      ['baton', expect.stringContaining(`[claim_lost] you no longer hold task ${reaped} (rebuild the search index): it was put back in the queue`)],
    ]);
    const notices = await beat(holder.id);
    expect(notices).toEqual([expect.objectContaining({ kind: 'claim_lost', task_id: reaped, task: 'rebuild the search index', item_id: null, taken_by_session_id: null })]);
    expect(new Date(notices[0].at as string).getTime()).toBeGreaterThan(Date.now() + tenMinutes / 2);
    for (const id of [reaped, noSession]) expect((await run.http.get(`/tasks/${id}`)).body).toMatchObject({ status: 'pending', claimed_by: null });

    // Once only, and to nobody else.
    expect(await beat(holder.id)).toEqual([]);
    expect((await callTool(client, 'add_session_note', { session_id: holder.id, body: 'and now?' })).value.notices).toBeUndefined();
    expect(await beat(bystander.id)).toEqual([]);
    expect((await run.http.post(`/projects/${projectId}/messages/receive`, { session_id: bystander.id })).body.messages).toEqual([]);
  });
});
