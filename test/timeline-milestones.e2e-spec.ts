import type { Browser, Page } from 'playwright-core';
import { eachBackend, RunningBackend } from './support/backends';
import { describeBrowser, expectUsable, launchChromium, openView, pageErrors, requireBuiltDashboard } from './support/chromium';
import { Http } from './support/http';
import { createProject } from './support/projects';
import { startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

interface Entry {
  id: string;
  kind: string;
  seq: number;
  occurred_at: string;
  summary: string;
  session_id: string | null;
  data: Record<string, unknown>;
}

/** A milestone's life next to an agent's: created, a session starts, an ordinary item, the milestone done. */
async function story(http: Http, name: string) {
  const projectId = await createProject(http, name);
  const add = async (title: string, milestone_type?: string) => {
    const res = await http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', title, ...(milestone_type ? { milestone_type } : {}) });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const milestone = await add('Public beta opens', 'milestone');
  // Distinct milliseconds, so the expected order does not rest on a tie-break.
  await sleep(5);
  const started = await http.post(`/projects/${projectId}/start-session`, { name: 'worker' });
  expect(started.status).toBe(201);
  await sleep(5);
  await add('Write the release notes');
  const open = await add('Launch party', 'milestone');
  await sleep(5);
  expect((await http.post(`/projects/${projectId}/sprint-items/${milestone}/complete`, { notes: 'shipped' })).status).toBe(200);
  return { projectId, milestone, open, sessionId: started.body.session_id as string };
}

describe.each(eachBackend())('milestones on the timeline on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(() => run?.stop());

  test('milestone items appear as created and completed markers among the AI-log events, newest first; ordinary items do not', async () => {
    const { projectId, milestone, open, sessionId } = await story(run.http, 'Beta');
    const page = await run.http.get(`/projects/${projectId}/timeline`);
    expect(page.status).toBe(200);
    const events = page.body.events as Entry[];
    expect(events.map((e) => [e.kind, e.kind === 'milestone' ? `${e.data.marker} ${e.data.title}` : e.session_id])).toEqual([
      ['milestone', 'completed Public beta opens'],
      ['milestone', 'created Launch party'],
      ['session_start', sessionId],
      ['milestone', 'created Public beta opens'],
    ]);
    expect(events[0]).toMatchObject({
      id: `milestone:${milestone}:completed`,
      seq: 0,
      summary: 'Milestone completed: Public beta opens',
      project_id: projectId,
      session_id: null,
      data: { item_id: milestone, marker: 'completed', status: 'done' },
    });
    expect(events[1].data).toMatchObject({ item_id: open, status: 'pending' });
  });

  test('pages of one entry walk the same list; kind=milestone gives the markers alone; a session filter and since/until apply to markers too', async () => {
    const { projectId, sessionId } = await story(run.http, 'Paged');
    const all = (await run.http.get(`/projects/${projectId}/timeline`)).body.events as Entry[];
    const walked: Entry[] = [];
    let cursor: string | null = null;
    do {
      const res: { status: number; body: { events: Entry[]; next_cursor: string | null } } = await run.http.get(
        `/projects/${projectId}/timeline?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      walked.push(...res.body.events);
      cursor = res.body.next_cursor;
    } while (cursor);
    expect(walked.map((e) => e.id)).toEqual(all.map((e) => e.id));

    const markers = (await run.http.get(`/projects/${projectId}/timeline?kind=milestone`)).body.events as Entry[];
    expect(markers.map((e) => e.summary)).toEqual(['Milestone completed: Public beta opens', 'Milestone created: Launch party', 'Milestone created: Public beta opens']);
    const ofSession = (await run.http.get(`/projects/${projectId}/timeline?session_id=${sessionId}`)).body.events as Entry[];
    expect(ofSession.map((e) => e.kind)).toEqual(['session_start']);
    const since = all[1].occurred_at;
    const recent = (await run.http.get(`/projects/${projectId}/timeline?since=${encodeURIComponent(since)}`)).body.events as Entry[];
    expect(recent.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    const bad = await run.http.get(`/projects/${projectId}/timeline?kind=marker`);
    expect([bad.status, bad.body.detail]).toEqual([
      400,
      expect.stringContaining('kind must be one of session_start, tool_call, handoff_correction, sprint_verification, milestone'),
    ]);
  });
});

describeBrowser('milestone markers in the dashboard timeline (self-hosted, SQLite)', () => {
  let testApp: TestApp;
  let http: Http;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    requireBuiltDashboard();
    testApp = await startApp({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    http = new Http(testApp.url);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    errors = pageErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  test('the timeline draws each milestone marker among the events, in the API order, and a new milestone shows live', async () => {
    const { projectId } = await story(http, 'Drawn');
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/timeline`, /^Timeline of /, { live: true });
    const list = page.getByRole('list', { name: 'AI-log events, newest first' });
    await list.getByRole('listitem', { name: 'Milestone completed: Public beta opens' }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(4);
    expect(await list.locator('li.milestone-marker strong').allTextContents()).toEqual(['Public beta opens', 'Launch party', 'Public beta opens']);
    await http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', title: 'General availability', milestone_type: 'milestone' });
    await list.getByRole('listitem', { name: 'Milestone created: General availability' }).waitFor({ timeout: 3000 });
    await expectUsable(page, 'timeline-milestones', 'timeline', { maxWidth: 375 });
    expect(errors).toEqual([]);
  });
});
