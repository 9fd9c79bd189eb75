import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { freshEmail, signIn } from './support/accounts';
import { describeBrowser, describeHostedBrowser, expectUsable, launchChromium, openView, pageErrors, requireBuiltDashboard } from './support/chromium';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

beforeAll(requireBuiltDashboard);

/** An agent: its own MCP connection and the session it started. */
async function agent(url: string, projectId: string, name: string, token?: string): Promise<{ mcp: Client; sessionId: string }> {
  const mcp = await connectMcp(url, token);
  const started = await callTool(mcp, 'start_session', { project_id: projectId, name });
  expect(started.isError).toBe(false);
  return { mcp, sessionId: started.value.session_id };
}

describeBrowser('the activity views in Chromium (self-hosted, SQLite)', () => {
  let testApp: TestApp;
  let http: Http;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let projectId: string;
  const agents: Client[] = [];
  const start = async (name: string) => {
    const a = await agent(testApp.url, projectId, name);
    agents.push(a.mcp);
    return a;
  };

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    http = new Http(testApp.url);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.close()));
    await browser?.close();
    await testApp?.close();
  });
  beforeEach(async () => {
    projectId = await createProject(http, 'Relay');
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    errors = pageErrors(page);
  });
  afterEach(async () => {
    await page.close();
    expect(errors).toEqual([]);
  });

  test('sessions: live heartbeats and locks; a forced release from the page frees the file, and another session then claims it over MCP', async () => {
    const holder = await start('holder');
    const waiter = await start('waiter');
    expect((await callTool(holder.mcp, 'claim_file', { session_id: holder.sessionId, file_path: 'src/app.ts' })).isError).toBe(false);
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/sessions`, /^Sessions of /, { live: true });
    const locks = page.getByRole('list', { name: 'File locks' });
    await locks.getByRole('heading', { name: 'src/app.ts' }).waitFor();
    expect(await locks.getByText('held by holder').count()).toBe(1);
    const sessions = page.getByRole('list', { name: 'Sessions' });
    // Most recently seen first: the holder's claim was its latest sign of life.
    expect(await sessions.getByRole('heading', { level: 3 }).allTextContents()).toEqual(['holder', 'waiter']);
    // A heartbeat moves the waiter to the top at once.
    await callTool(waiter.mcp, 'heartbeat', { session_id: waiter.sessionId });
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[aria-label="Sessions"] h3')?.textContent === 'waiter', undefined, { timeout: 3000 });
    // Locks claimed elsewhere show up live.
    expect((await callTool(holder.mcp, 'claim_file', { session_id: holder.sessionId, file_path: 'src/db.ts' })).isError).toBe(false);
    await locks.getByRole('heading', { name: 'src/db.ts' }).waitFor({ timeout: 3000 });
    await expectUsable(page, 'dashboard-activity', 'sessions', { maxWidth: 375 });

    const refused = await callTool(waiter.mcp, 'claim_file', { session_id: waiter.sessionId, file_path: 'src/app.ts' });
    expect([refused.isError, refused.text]).toEqual([true, expect.stringContaining('locked by session holder')]);
    // With the keyboard: focus the button, press Enter.
    await page.getByRole('button', { name: 'Force release src/app.ts' }).focus();
    await page.keyboard.press('Enter');
    await locks.getByRole('heading', { name: 'src/app.ts' }).waitFor({ state: 'detached', timeout: 2000 });
    const claimed = await callTool(waiter.mcp, 'claim_file', { session_id: waiter.sessionId, file_path: 'src/app.ts' });
    expect(claimed).toMatchObject({ isError: false, value: { claimed: true, file_path: 'src/app.ts', session_id: waiter.sessionId } });
    await locks.getByText('held by waiter').waitFor({ timeout: 3000 });
    // Closing a session shows it closed and drops its locks, live.
    await callTool(holder.mcp, 'close_session', { session_id: holder.sessionId });
    await locks.getByRole('heading', { name: 'src/db.ts' }).waitFor({ state: 'detached', timeout: 3000 });
    await sessions.getByRole('listitem').filter({ hasText: 'holder' }).getByText('closed', { exact: true }).waitFor({ timeout: 3000 });
    await expectUsable(page, 'dashboard-activity', 'sessions-after-release', { maxWidth: 375 });
  });

  test('messages: an agent sends over MCP and the message shows live, newest first; older pages on demand', async () => {
    const alice = await start('alice');
    const bob = await start('bob');
    for (let i = 1; i <= 55; i++) await http.post(`/projects/${projectId}/messages`, { broadcast: true, body: `note ${i}`, from: 'seed' });
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/messages`, /^Messages in /, { live: true });
    const list = page.getByRole('list', { name: 'Messages, newest first' });
    await list.getByText('note 55').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(50);
    const sent = await callTool(alice.mcp, 'send_message', { project_id: projectId, session_id: alice.sessionId, to_session_id: bob.sessionId, body: 'Take the migration?' });
    expect(sent.isError).toBe(false);
    await list.getByText('Take the migration?').waitFor({ timeout: 3000 });
    expect(await list.locator('li').first().textContent()).toContain('Take the migration?');
    expect(await list.locator('li').first().textContent()).toContain('from alice to session');
    await expectUsable(page, 'dashboard-activity', 'messages', { maxWidth: 375 });
    await page.getByRole('button', { name: 'Older messages' }).click();
    await list.getByText('note 1', { exact: true }).waitFor();
    expect(await list.getByRole('listitem').count()).toBe(56);
    expect(await page.getByRole('button', { name: 'Older messages' }).count()).toBe(0);
    // Reading on the page moved no cursor: bob still receives it.
    const received = await callTool(bob.mcp, 'receive_messages', { project_id: projectId, session_id: bob.sessionId, limit: 100 });
    expect(received.value.messages.map((m: { body: string }) => m.body)).toContain('Take the migration?');
  });

  test('handoffs: one written over MCP shows as waiting with what it carries, then as accepted when a session starts from it', async () => {
    const author = await start('author');
    await callTool(author.mcp, 'claim_file', { session_id: author.sessionId, file_path: 'src/carried.ts' });
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/handoffs`, /^Handoffs of /, { live: true });
    await page.getByText('No handoff has been written in this project.').waitFor();
    const made = await callTool(author.mcp, 'generate_handoff', { project_id: projectId, session_id: author.sessionId, carry: true });
    expect(made.isError).toBe(false);
    const card = page.getByRole('listitem').filter({ hasText: made.value.handoff_id });
    await card.getByText('waiting').waitFor({ timeout: 3000 });
    expect(await card.getByRole('heading', { level: 2 }).textContent()).toBe('goal handoff from author');
    await card.getByText('holds 1 file lock for whoever takes it').waitFor();
    await expectUsable(page, 'dashboard-activity', 'handoffs-waiting', { maxWidth: 375 });
    const taker = await connectMcp(testApp.url);
    agents.push(taker);
    const started = await callTool(taker, 'start_session', { project_id: projectId, name: 'taker', handoff_id: made.value.handoff_id });
    expect(started.isError).toBe(false);
    await card.getByText('accepted', { exact: true }).waitFor({ timeout: 3000 });
    await card.getByText(/accepted by taker/).waitFor();
    expect(await card.getByText(/holds/).count()).toBe(0);
    await expectUsable(page, 'dashboard-activity', 'handoffs-accepted', { maxWidth: 375 });
  });

  test('timeline: tool calls of an agent show live, newest first; older events page in', async () => {
    const worker = await start('worker');
    for (let i = 0; i < 50; i++) await callTool(worker.mcp, 'heartbeat', { session_id: worker.sessionId });
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/timeline`, /^Timeline of /, { live: true });
    const list = page.getByRole('list', { name: 'AI-log events, newest first' });
    await list.getByRole('listitem').first().waitFor();
    expect(await list.getByRole('listitem').count()).toBe(50);
    await callTool(worker.mcp, 'claim_file', { session_id: worker.sessionId, file_path: 'src/late.ts' });
    await page.waitForFunction(() => (globalThis as any).document.querySelector('[aria-label="AI-log events, newest first"] li')?.textContent.includes('claim_file'), undefined, {
      timeout: 2000,
    });
    await expectUsable(page, 'dashboard-activity', 'timeline', { maxWidth: 375 });
    const all = (await http.get(`/projects/${projectId}/timeline?limit=500`)).body.events as { id: string; summary: string }[];
    expect(all.length).toBeGreaterThan(50);
    await page.getByRole('button', { name: 'Older events' }).click();
    await page.getByRole('button', { name: 'Older events' }).waitFor({ state: 'detached' });
    expect(await list.getByRole('listitem').count()).toBe(all.length);
    // The whole log, in the API's order, the oldest (of the session's start) last.
    expect(await list.locator('li > p').allTextContents()).toEqual(all.map((e) => e.summary));
  });

  test('the project views are reachable from the project navigation, which marks the current one', async () => {
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/hitl`, /^Questions/, { live: true });
    const nav = page.getByRole('navigation', { name: 'Project views' });
    for (const [link, heading] of [
      ['Sessions', /^Sessions of /],
      ['Messages', /^Messages in /],
      ['Handoffs', /^Handoffs of /],
      ['Timeline', /^Timeline of /],
      ['Questions', /^Questions for /],
    ] as const) {
      await nav.getByRole('link', { name: link }).click();
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      expect(await nav.locator('[aria-current="page"]').textContent()).toBe(link);
    }
  });
});

describeHostedBrowser('the activity views in Chromium (hosted, signed in)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await db?.drop();
  });

  test("a signed-in person force-releases a lock of their workspace; another workspace's project is not found on every view", async () => {
    const person = await signIn(testApp, freshEmail());
    const projectId = await createProject(person.http, 'Hosted relay');
    const created = await person.http.post('/auth/tokens', { label: 'agents' });
    expect(created.status).toBe(201);
    const holder = await agent(testApp.url, projectId, 'holder', created.body.token);
    const waiter = await agent(testApp.url, projectId, 'waiter', created.body.token);
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const [name, value] = person.cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    try {
      expect((await callTool(holder.mcp, 'claim_file', { session_id: holder.sessionId, file_path: 'lib/x.ts' })).isError).toBe(false);
      await openView(page, `${testApp.url}/dashboard/projects/${projectId}/sessions`, /^Sessions of Hosted relay/, { live: true });
      await page.getByRole('button', { name: 'Force release lib/x.ts' }).click();
      await page.getByText('No file is locked.').waitFor({ timeout: 2000 });
      expect((await callTool(waiter.mcp, 'claim_file', { session_id: waiter.sessionId, file_path: 'lib/x.ts' })).value).toMatchObject({
        claimed: true,
        session_id: waiter.sessionId,
      });
      await page.getByText('held by waiter').waitFor({ timeout: 3000 });
      expect(errors).toEqual([]);
    } finally {
      await holder.mcp.close();
      await waiter.mcp.close();
    }
    const theirs = await createProject((await tenantClient(testApp, 'other workspace')).http, 'Theirs');
    for (const [view, what] of [
      ['sessions', 'sessions'],
      ['messages', 'messages'],
      ['handoffs', 'handoffs'],
      ['timeline', 'timeline'],
    ]) {
      await page.goto(`${testApp.url}/dashboard/projects/${theirs}/${view}`);
      await page
        .getByRole('alert')
        .filter({ hasText: `Could not load the ${what}: project not found` })
        .waitFor();
    }
    await context.close();
  });
});
