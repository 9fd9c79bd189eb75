import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Clock } from '../src/common/clock';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
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
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
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
});
