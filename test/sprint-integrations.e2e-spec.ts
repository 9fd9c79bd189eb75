import WebSocket from 'ws';
import { ContextSections } from '../src/common/extensions/context-sections';
import { HandoffHooks } from '../src/common/extensions/handoff-hooks';
import { eachBackend, RunningBackend } from './support/backends';
import { sprintClient } from './support/sprint-client';
import { inTenantDb } from './support/tenant-db';
import { sleep } from './support/wait';

/** What the sprint engine gives other parts of Baton: dashboard events, the context block, touched files at handoff. */
describe.each(eachBackend())('sprint integrations on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('every change is announced to the dashboard as sprint_item_changed', async () => {
    const projectId = await api.project('Events');
    const ws = new WebSocket(run.testApp.url.replace('http', 'ws') + '/ws', { headers: run.token ? { authorization: `Bearer ${run.token}` } : {} });
    const frames: { event: string; data: any }[] = [];
    await new Promise<void>((resolve, reject) => {
      ws.on('message', (raw) => {
        const frame = JSON.parse(String(raw));
        frames.push(frame);
        if (frame.event === 'connected') resolve();
      });
      ws.on('error', reject);
    });
    try {
      const s = await api.session(projectId);
      const item = await api.item(projectId, { title: 'Watch me change' });
      await api.claim(projectId, item.id, { session_id: s.id });
      await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/complete`, { notes: 'done and dusted', session_id: s.id });
      await run.http.delete(`/projects/${projectId}/sprint-items/${item.id}`);
      const deadline = Date.now() + 10_000;
      const changes = () => frames.filter((f) => f.event === 'sprint_item_changed' && f.data.item_id === item.id).map((f) => f.data.change);
      while (changes().length < 4 && Date.now() < deadline) await sleep(50);
      expect(changes()).toEqual(['created', 'claimed', 'completed', 'deleted']);
      const completed = frames.find((f) => f.event === 'sprint_item_changed' && f.data.change === 'completed');
      expect(completed!.data).toMatchObject({ project_id: projectId, item: { id: item.id, status: 'done', notes: 'done and dusted' } });
    } finally {
      ws.close();
    }
  });

  test('the context block carries the active items with their status, most important first', async () => {
    const projectId = await api.project('Context');
    const s = await api.session(projectId);
    const normal = await api.item(projectId, { title: 'Normal pending chore' });
    const urgentPending = await api.item(projectId, { title: 'Urgent pending outage', priority: 'urgent' });
    const urgentRunning = await api.item(projectId, { title: 'Urgent running migration', priority: 'urgent' });
    const finished = await api.item(projectId, { title: 'Finished long ago' });
    await api.claim(projectId, urgentRunning.id, { session_id: s.id });
    await run.http.post(`/projects/${projectId}/sprint-items/${finished.id}/complete`, {});
    const sections = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(ContextSections).collect(m, projectId));
    const sprint = sections.find((x) => x.key === 'sprint_items')!;
    expect(sprint).toMatchObject({ key: 'sprint_items', order: 30 });
    expect(sprint.lines).toEqual([
      `[in_progress] ${urgentRunning.title} (urgent, ${urgentRunning.slug})`,
      `[pending] ${urgentPending.title} (urgent, ${urgentPending.slug})`,
      `[pending] ${normal.title} (normal, ${normal.slug})`,
    ]);
    const block = await run.http.get(`/projects/${projectId}/context-block`);
    expect(block.text).toContain(`[in_progress] ${urgentRunning.title}`);
    expect(block.text).not.toContain(finished.title);
  });

  test("a handoff fills each active item's touches_files with the changed files whose names match words of its title", async () => {
    const projectId = await api.project('Touched Files');
    const login = await api.item(projectId, { title: 'Fix login redirect' });
    const billing = await api.item(projectId, { title: 'Billing invoice totals' });
    const closed = await api.item(projectId, { title: 'Login audit trail' });
    await run.http.post(`/projects/${projectId}/sprint-items/${closed.id}/skip`, {});
    const changedFiles = ['src/auth/login.controller.ts', 'src/auth/LoginRedirect.tsx', 'src/billing/invoiceTotals.ts', 'README.md', 'src/fix.ts'];
    await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(HandoffHooks).runAll(m, { projectId, changedFiles }));
    expect((await api.get(projectId, login.id)).body.touches_files).toEqual(['src/auth/login.controller.ts', 'src/auth/LoginRedirect.tsx']);
    expect((await api.get(projectId, billing.id)).body.touches_files).toEqual(['src/billing/invoiceTotals.ts']);
    expect((await api.get(projectId, closed.id)).body.touches_files).toEqual([]);
    // A later handoff adds to the list; it never drops what an earlier one found.
    await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(HandoffHooks).runAll(m, { projectId, changedFiles: ['lib/redirect.ts'] }));
    expect((await api.get(projectId, login.id)).body.touches_files).toEqual(['src/auth/login.controller.ts', 'src/auth/LoginRedirect.tsx', 'lib/redirect.ts']);
  });
});
