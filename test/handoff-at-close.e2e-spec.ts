import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Clock } from '../src/common/clock';
import { SessionsSweeper } from '../src/modules/sessions/sessions.sweeper';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';

interface Listed {
  id: string;
  session_id: string | null;
  automatic: boolean;
  status: string;
}

describe.each(eachBackend())('a handoff at every close on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;
  let client: Client;
  const handoffs = async (projectId: string): Promise<Listed[]> => {
    const res = await run.http.get(`/projects/${projectId}/handoffs`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const stored = async (projectId: string, handoffId: string) => {
    const accepted = await run.http.post(`/projects/${projectId}/handoff/accept`, { handoff_id: handoffId });
    expect(accepted.status).toBe(200);
    return accepted.body;
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

  test('closing without a handoff stores one automatic delta; closing twice stores one; it is offered like a written one', async () => {
    const projectId = await api.project('Close Writes');
    const session = await api.session(projectId, { name: 'worker' });
    const item = await api.item(projectId, { title: 'Port the scheduler to cron syntax' });
    await api.claim(projectId, item.id, { session_id: session.id });
    expect((await callTool(client, 'claim_file', { session_id: session.id, file_path: 'src/scheduler.ts' })).value).toMatchObject({ claimed: true });
    expect((await run.http.post('/tasks', { project_id: projectId, session_id: session.id, description: 'Parsed the five-field cron form', status: 'done' })).status).toBe(201);
    expect((await run.http.post(`/sessions/${session.id}/notes`, { body: 'the @reboot form is still missing' })).status).toBe(201);

    expect((await run.http.post(`/sessions/${session.id}/close`)).body.closed_now).toBe(true);
    expect((await run.http.post(`/sessions/${session.id}/close`)).body.closed_now).toBe(false);
    const list = await handoffs(projectId);
    expect(list).toEqual([expect.objectContaining({ session_id: session.id, automatic: true, status: 'waiting', mode: 'delta' })]);

    const started = await run.http.post(`/projects/${projectId}/start-session`, { name: 'next' });
    expect(started.status).toBe(201);
    expect(started.body.waiting_handoff).toMatchObject({ handoff_id: list[0].id, from_session_id: session.id, from_session_name: 'worker' });
    const taken = await run.http.post(`/projects/${projectId}/start-session`, { name: 'taker', handoff_id: list[0].id });
    expect(taken.status).toBe(201);
    const content: string = taken.body.handoff.content;
    expect(content).toMatch(/^---\n/);
    expect(content).toContain('automatic: true');
    expect(content).toContain('Written by Baton when session worker closed without a handoff');
    expect(content).toContain(`- ${item.slug} "Port the scheduler to cron syntax": back to pending for the next session (stall 1)`);
    expect(content).toContain('File locks released:\n- src/scheduler.ts');
    expect(content).toContain('- [done] Parsed the five-field cron form');
    expect(content).toContain('- the @reboot form is still missing');
    if (!run.testApp.config.isHosted) {
      const dir = join(run.testApp.config.dataDir, 'handoffs', projectId);
      expect(existsSync(dir)).toBe(true);
      const onDisk = readFileSync(join(dir, readdirSync(dir)[0]), 'utf8');
      expect(onDisk).toContain('Written by Baton when session worker closed without a handoff');
    }
    // The item went back to the queue as a stall, exactly as a close without this handoff does.
    expect((await api.get(projectId, item.id)).body).toMatchObject({ status: 'pending', stall_count: 1 });
  });

  test('a session that handed off since its last activity ends without another; activity after its handoff gets one', async () => {
    const projectId = await api.project('Handed Off');
    const quiet = await api.session(projectId, { name: 'quiet' });
    expect((await run.http.post(`/projects/${projectId}/handoff`, { session_id: quiet.id, summary: 'all done' })).status).toBe(201);
    await run.http.post(`/sessions/${quiet.id}/close`);
    expect((await handoffs(projectId)).map((h) => h.automatic)).toEqual([false]);

    const busy = await api.session(projectId, { name: 'busy' });
    expect((await run.http.post(`/projects/${projectId}/handoff`, { session_id: busy.id, summary: 'first half' })).status).toBe(201);
    await run.http.post(`/sessions/${busy.id}/heartbeat`);
    await run.http.post(`/sessions/${busy.id}/close`);
    const list = await handoffs(projectId);
    expect(list.map((h) => [h.session_id, h.automatic])).toEqual([
      [busy.id, true],
      [busy.id, false],
      [quiet.id, false],
    ]);
  });

  test('the MCP close, the Stop hook and the sweeper write one too', async () => {
    const projectId = await api.project('Other Closes');
    const viaMcp = await api.session(projectId, { name: 'via-mcp' });
    expect((await callTool(client, 'close_session', { session_id: viaMcp.id })).value).toMatchObject({ closed_now: true });
    expect((await callTool(client, 'close_session', { session_id: viaMcp.id })).value).toMatchObject({ closed_now: false });
    expect((await handoffs(projectId)).filter((h) => h.session_id === viaMcp.id).map((h) => h.automatic)).toEqual([true]);

    const hooked = await api.session(projectId, { name: 'hooked' });
    const stopped = await run.http.post(`/hooks/stop?baton_session_id=${hooked.id}&project_id=${projectId}`, {});
    expect(stopped.status).toBe(200);
    expect((await run.http.post(`/hooks/stop?baton_session_id=${hooked.id}&project_id=${projectId}`, {})).status).toBe(200);
    expect((await handoffs(projectId)).filter((h) => h.session_id === hooked.id).map((h) => h.automatic)).toEqual([true]);

    const silent = await api.session(projectId, { name: 'silent' });
    const hourAndMore = (run.testApp.config.sessionTimeoutS + 60) * 1000;
    const spy = jest.spyOn(run.testApp.app.get(Clock), 'now').mockImplementation(() => new Date(Date.now() + hourAndMore));
    try {
      expect(await run.testApp.app.get(SessionsSweeper).sweepOnce()).toBeGreaterThanOrEqual(1);
    } finally {
      spy.mockRestore();
    }
    const swept = (await handoffs(projectId)).filter((h) => h.session_id === silent.id);
    expect(swept).toEqual([expect.objectContaining({ automatic: true })]);
    const checked = await stored(projectId, swept[0].id);
    expect(checked.handoff).toMatchObject({ id: swept[0].id, automatic: true });
  });

  test('a handoff that cannot be written never keeps a session from closing (self-hosted: its folder is not a folder)', async () => {
    if (run.testApp.config.isHosted) return;
    const projectId = await api.project('Unwritable');
    const session = await api.session(projectId, { name: 'stuck' });
    const item = await api.item(projectId, { title: 'Migrate the old settings file' });
    await api.claim(projectId, item.id, { session_id: session.id });
    mkdirSync(join(run.testApp.config.dataDir, 'handoffs'), { recursive: true });
    writeFileSync(join(run.testApp.config.dataDir, 'handoffs', projectId), 'in the way');
    const closed = await run.http.post(`/sessions/${session.id}/close`);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({ closed_now: true, session: { status: 'closed' } });
    expect(await handoffs(projectId)).toEqual([]);
    expect((await api.get(projectId, item.id)).body).toMatchObject({ status: 'pending', stall_count: 1 });
  });
});
