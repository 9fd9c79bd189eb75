import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { freshEmail, signIn } from './support/accounts';
import { describeBrowser, describeHostedBrowser, expectUsable, launchChromium, openView, pageErrors, requireBuiltDashboard, screenshotFolder } from './support/chromium';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

beforeAll(requireBuiltDashboard);

const column = (page: Page, label: string) => page.getByRole('region', { name: new RegExp(`^${label} \\(`) });

describeBrowser('goal and sprint board views in Chromium (self-hosted, SQLite)', () => {
  let testApp: TestApp;
  let http: Http;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    http = new Http(testApp.url);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    errors = pageErrors(page);
  });
  afterEach(async () => {
    await page.close();
    expect(errors).toEqual([]);
  });

  test('goal view: the person writes the goal and north star and switches the mode; an agent sets the goal over MCP and the page follows within 1 s', async () => {
    const projectId = await createProject(http, 'Harbour');
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/goal`, /^Goal of Harbour/, { live: true });
    await page.getByText('No goal written yet.').waitFor();
    await page.getByLabel('Goal', { exact: true }).fill('Ship the tide tables by spring');
    await page.getByLabel('North star').fill('Every sailor knows the tide');
    await page.getByLabel('Sprint').fill('Sprint 3');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    const saved = (await http.get(`/projects/${projectId}/goal`)).body;
    expect([saved.content, saved.north_star, saved.sprint, saved.version]).toEqual(['Ship the tide tables by spring', 'Every sailor knows the tide', 'Sprint 3', 1]);
    await page.getByRole('list', { name: 'Goal versions, newest first' }).getByText('Version 1').waitFor();

    await page.getByLabel('Goal mode').selectOption('auto');
    await waitUntil(async () => (await http.get(`/projects/${projectId}/goal-mode`)).body.mode === 'auto', 2000, 'goal mode auto');

    const agent = await connectMcp(testApp.url, undefined, 'http', 'goals');
    try {
      await callTool(agent, 'set_goal', { project_id: projectId, content: 'Ship the tide tables and the charts' });
      await page.getByText('Version 2', { exact: false }).first().waitFor({ timeout: 1000 });
      expect(await page.getByLabel('Goal', { exact: true }).inputValue()).toBe('Ship the tide tables and the charts');
      await callTool(agent, 'set_goal_mode', { project_id: projectId, mode: 'manual' });
      await waitUntil(async () => (await page.getByLabel('Goal mode').inputValue()) === 'manual', 1000, 'the mode switched by the agent shown');
      expect(await page.getByRole('list', { name: 'Goal versions, newest first' }).getByRole('listitem').count()).toBe(2);
    } finally {
      await agent.close();
    }
    // Bad input is refused with the server's words, and nothing changes.
    await page.getByLabel('Sprint').fill('line one\nline two'.replace('\n', '\u0007'));
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.getByRole('alert').filter({ hasText: 'sprint' }).waitFor();
    expect((await http.get(`/projects/${projectId}/goal`)).body.version).toBe(2);
    // The browser logs the refused request itself: expected here, once.
    expect(errors.filter((e) => e.includes('status of 400'))).toHaveLength(1);
    errors.splice(
      errors.findIndex((e) => e.includes('status of 400')),
      1,
    );
    await expectUsable(page, 'dashboard-board', 'goal', { maxWidth: page.viewportSize()!.width });
  });

  test('sprint board: columns by status, group and wave; gates say why an item waits; a claim and a completion by an agent over MCP move the cards within 1 s', async () => {
    const projectId = await createProject(http, 'Dockyard');
    const item = async (body: Record<string, unknown>) => (await http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', ...body })).body;
    const keel = await item({ title: 'Lay the keel', group: 'hull', wave: 'wave-1', priority: 'high' });
    await item({ title: 'Raise the ribs', group: 'hull', wave: 'wave-2', depends_on: keel.id });
    await item({ title: 'Order the sails', group: 'rigging', blocker_kind: 'manual', notes: 'Waiting for the sailmaker to answer.' });
    await item({ title: 'Launch day', milestone_type: 'milestone' });

    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/board`, /^Sprint board of Dockyard/, { live: true });
    const todo = column(page, 'Pending');
    await todo.getByRole('button', { name: 'Raise the ribs' }).waitFor();
    await todo.getByText('not claimable: waits on its dependency').waitFor();
    await todo.getByText('not claimable: blocked').waitFor();
    await todo.getByText('not claimable: a milestone').waitFor();
    await expectUsable(page, 'dashboard-board', 'board', { maxWidth: page.viewportSize()!.width });

    // Item details, by keyboard: the gate's full reason; Escape closes.
    await todo.getByRole('button', { name: 'Raise the ribs' }).focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: 'Raise the ribs' });
    await details.getByText(new RegExp(`depends on.*${keel.slug}`)).waitFor();
    await expectUsable(page, 'dashboard-board', 'board-details', { maxWidth: page.viewportSize()!.width });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    const session = (await http.post('/sessions/register', { project_id: projectId, name: 'shipwright', human_id: 'ada' })).body;
    const agent = await connectMcp(testApp.url, undefined, 'http', 'sprint');
    try {
      const started = Date.now();
      const claim = await callTool(agent, 'claim_sprint_item', { project_id: projectId, item_id: keel.id, session_id: session.id });
      expect(claim.value).toMatchObject({ claimed: true });
      const inProgress = column(page, 'In progress');
      await inProgress.getByRole('button', { name: 'Lay the keel' }).waitFor({ timeout: 1000 });
      expect(Date.now() - started).toBeLessThan(1000 + 500);
      await inProgress.getByText(/held by shipwright for under a minute/).waitFor({ timeout: 1000 });
      expect(await todo.getByRole('button', { name: 'Lay the keel' }).count()).toBe(0);

      await callTool(agent, 'complete_sprint_item', { project_id: projectId, item_id: keel.id, session_id: session.id, notes: 'Keel laid and checked' });
      await column(page, 'Done').getByRole('button', { name: 'Lay the keel' }).waitFor({ timeout: 1000 });
      // Its dependency done, the ribs are claimable: the gate goes.
      await todo.getByText('not claimable: waits on its dependency').waitFor({ state: 'detached', timeout: 1000 });
    } finally {
      await agent.close();
    }

    await page.getByRole('radio', { name: 'Group' }).check();
    await column(page, 'hull').getByRole('button', { name: 'Raise the ribs' }).waitFor();
    await column(page, 'rigging').getByRole('button', { name: 'Order the sails' }).waitFor();
    await column(page, 'No group').getByRole('button', { name: 'Launch day' }).waitFor();
    await page.getByRole('radio', { name: 'Wave' }).check();
    await column(page, 'wave-2').getByRole('button', { name: 'Raise the ribs' }).waitFor();
    await expectUsable(page, 'dashboard-board', 'board-by-wave', { maxWidth: page.viewportSize()!.width });
  });

  test('1,000 sprint items: the board is painted in under 1 s, columns show the first cards and the rest on request', async () => {
    const projectId = await createProject(http, 'Fleet');
    const items = Array.from({ length: 1000 }, (_, i) => ({ title: `Fit out ship ${i + 1}`, version: 'v1', group: `squadron-${i % 10}`, wave: `wave-${i % 4}`, force: true }));
    const batch = await http.post(`/projects/${projectId}/sprint-batch`, { op: 'create', items });
    expect(batch.status).toBe(200);
    await page.setViewportSize({ width: 1280, height: 900 });
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/board`, /^Sprint board of Fleet/, { live: true });
    await page.getByText('1000 items').waitFor();
    const rendered = await page.evaluate(() => performance.getEntriesByName('baton:board-rendered')[0]?.startTime);
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(1000);
    const todo = column(page, 'Pending');
    expect(await todo.getByRole('listitem').count()).toBe(50);
    await todo.getByRole('button', { name: 'Show 50 more of 950' }).click();
    expect(await todo.getByRole('listitem').count()).toBe(100);
    await page.screenshot({ path: join(screenshotFolder('dashboard-board'), 'board-1000.png') });
  });
});

describeHostedBrowser('goal and sprint board views in Chromium (hosted, signed in)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_SWEEP_INTERVAL_SECONDS: '0' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await db?.drop();
  });

  test("a signed-in person's board follows a claim made with the workspace's token over MCP; the goal is saved with the session cookie; another workspace's project is not found", async () => {
    const person = await signIn(testApp, freshEmail());
    const projectId = await createProject(person.http, 'Hosted board');
    const item = (await person.http.post(`/projects/${projectId}/sprint-items`, { version: 'v1', title: 'Paint the hull' })).body;
    const session = (await person.http.post('/sessions/register', { project_id: projectId, name: 'painter', human_id: 'me' })).body;
    const token = (await person.http.post('/auth/tokens', { label: 'agent' })).body.token as string;
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const [name, value] = person.cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);

    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/board`, /^Sprint board of Hosted board/, { live: true });
    await column(page, 'Pending').getByRole('button', { name: 'Paint the hull' }).waitFor();
    const agent = await connectMcp(testApp.url, token, 'http', 'sprint');
    try {
      expect((await callTool(agent, 'claim_sprint_item', { project_id: projectId, item_id: item.id, session_id: session.id })).value).toMatchObject({ claimed: true });
      await column(page, 'In progress')
        .getByText(/held by painter/)
        .waitFor({ timeout: 1000 });
    } finally {
      await agent.close();
    }

    await page.getByRole('navigation', { name: 'Project views' }).getByRole('link', { name: 'Goal' }).click();
    await page.getByRole('heading', { level: 1, name: /^Goal of Hosted board/ }).waitFor();
    await page.getByLabel('Goal', { exact: true }).fill('Launch before the storms');
    await page.getByRole('button', { name: 'Save goal' }).click();
    await page.getByText('Saved as version 1.').waitFor();
    expect((await person.http.get(`/projects/${projectId}/goal`)).body.content).toBe('Launch before the storms');
    expect(errors).toEqual([]);

    // Another workspace's project is unknown here, like an id that names nothing.
    const theirs = await createProject((await tenantClient(testApp, 'other workspace')).http, 'Theirs');
    for (const id of [theirs, randomUUID()]) {
      await openView(page, `${testApp.url}/dashboard/projects/${id}/board`, /^Sprint board$/, { live: true });
      await page.getByRole('alert').filter({ hasText: 'Could not load the sprint items: project not found' }).waitFor();
      await openView(page, `${testApp.url}/dashboard/projects/${id}/goal`, /^Goal$/, { live: true });
      await page.getByRole('alert').filter({ hasText: 'Could not load the goal: project not found' }).waitFor();
    }
    await context.close();
  });
});
