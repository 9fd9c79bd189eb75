import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { dashboardDir } from '../src/modules/dashboard/dashboard-static';
import { freshEmail, signIn } from './support/accounts';
import { describeBrowser, describeHostedBrowser, expectUsable, launchChromium, openView, pageErrors } from './support/chromium';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

const BUILT = dashboardDir({} as never);
const NOT_BUILT = `the dashboard is not built at ${BUILT}: run \`npm run build\` (npm install runs it) before this suite`;

/** The hashed script the built page loads. */
function scriptPath(): string {
  const match = /src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(readFileSync(join(BUILT, 'index.html'), 'utf8'));
  if (!match) throw new Error('the built index.html loads no script');
  return match[1];
}

beforeAll(() => {
  if (!existsSync(join(BUILT, 'index.html'))) throw new Error(NOT_BUILT);
});

describe('the dashboard served by a self-hosted Baton', () => {
  let testApp: TestApp;
  let http: Http;
  beforeAll(async () => {
    testApp = await startApp();
    http = new Http(testApp.url);
  });
  afterAll(() => testApp?.close());

  test('/dashboard and any path under it answer the app page, not cached; hashed assets are cached for good; a missing asset is 404', async () => {
    for (const path of ['/dashboard', '/dashboard/', '/dashboard/projects/abc/hitl', '/dashboard/no/such/view']) {
      const res = await fetch(testApp.url + path, { redirect: 'manual' });
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res.text()).toContain('<div id="app"></div>');
    }
    const script = await fetch(testApp.url + scriptPath());
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await http.get('/dashboard/assets/index-00000000.js');
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/no such dashboard asset/);
  });

  test('without a build, /dashboard answers 503 saying how to build it; the API is unaffected', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'baton-no-dashboard-'));
    const bare = await startApp({ SERVICE_DASHBOARD_DIR: empty });
    try {
      const res = await new Http(bare.url).get('/dashboard/projects');
      expect(res.status).toBe(503);
      expect(res.body.detail).toMatch(/not built: run `npm run build`/);
      expect((await new Http(bare.url).get('/projects')).status).toBe(200);
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });

  test('the site gate covers /dashboard and its assets', async () => {
    const gated = await startApp({ SITE_PASSWORD: 'open sesame' });
    try {
      for (const path of ['/dashboard', scriptPath()]) expect((await fetch(gated.url + path, { redirect: 'manual' })).status).toBe(401);
      const page = await fetch(gated.url + '/dashboard', { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toContain('<div id="app"></div>');
    } finally {
      await gated.close();
    }
  });
});

describePostgres('the dashboard served by a hosted Baton', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('an anonymous visitor is sent to sign in and brought back; a signed-in person gets the page; assets need no credentials', async () => {
    const anonymous = await fetch(`${testApp.url}/dashboard/projects/x/hitl`, { redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    const location = new URL(anonymous.headers.get('location')!, testApp.url);
    expect([location.pathname, location.searchParams.get('next')]).toEqual(['/auth/login', '/dashboard/projects/x/hitl']);
    const bare = await fetch(`${testApp.url}/dashboard`, { redirect: 'manual' });
    expect(new URL(bare.headers.get('location')!, testApp.url).searchParams.get('next')).toBe('/dashboard');
    const person = await signIn(testApp, freshEmail());
    const page = await fetch(`${testApp.url}/dashboard`, { headers: { cookie: person.cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"></div>');
    expect((await fetch(testApp.url + scriptPath())).status).toBe(200);
  });
});

describeBrowser('the dashboard in Chromium (self-hosted, SQLite)', () => {
  let testApp: TestApp;
  let http: Http;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let projectId: string;
  let sockets: WebSocketRoute[];
  /** Whether the page's next /ws connection reaches Baton (else it opens to a socket that never answers). */
  let reachServer = true;

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_HUMAN_ID: 'ada' });
    http = new Http(testApp.url);
    projectId = await createProject(http, 'Lighthouse');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    errors = pageErrors(page);
    sockets = [];
    reachServer = true;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      sockets.push(ws);
      if (reachServer) ws.connectToServer();
    });
  });
  afterEach(async () => {
    await page.close();
    expect(errors).toEqual([]);
  });

  test('the project list renders, fits 375 px, and follows a rename made through the API at once', async () => {
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    const name = (await http.get(`/projects/${projectId}`)).body.name;
    await page.getByRole('link', { name }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number)).toBeLessThanOrEqual(375);
    await expectUsable(page, 'dashboard', 'projects-light', { themes: ['light'] });
    expect((await http.post(`/projects/${projectId}/rename`, { name: 'Lighthouse renamed' })).status).toBe(200);
    await page.getByRole('link', { name: 'Lighthouse renamed' }).waitFor({ timeout: 1000 });
    expect(await page.getByRole('combobox', { name: 'Project' }).locator('option', { hasText: 'Lighthouse renamed' }).count()).toBe(1);
    // A project made or removed elsewhere appears and goes without a reload.
    const made = await http.post('/projects', { name: 'Made elsewhere' });
    await page.getByRole('link', { name: 'Made elsewhere' }).waitFor({ timeout: 1000 });
    expect((await http.delete(`/projects/${made.body.id}`)).status).toBe(204);
    await page.getByRole('link', { name: 'Made elsewhere' }).waitFor({ state: 'detached', timeout: 1000 });
    await expectUsable(page, 'dashboard', 'projects-dark', { themes: ['dark'] });
  });

  test('after the live socket drops, the page reconnects and catches up with what changed meanwhile', async () => {
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const before = (await http.get(`/projects/${projectId}`)).body.name;
    reachServer = false;
    await sockets.at(-1)!.close();
    await page.getByRole('status').filter({ hasText: 'Reconnecting' }).waitFor({ timeout: 2000 });
    await waitForSockets(() => sockets.length >= 2);
    expect((await http.post(`/projects/${projectId}/rename`, { name: 'Renamed while away' })).status).toBe(200);
    await sleep(300);
    expect(await page.getByRole('link', { name: 'Renamed while away' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: before }).count()).toBe(1);
    reachServer = true;
    await sockets.at(-1)!.close();
    await page.getByRole('link', { name: 'Renamed while away' }).waitFor({ timeout: 5000 });
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
  });

  test('HITL inbox: an agent asks over MCP, the question shows within 1 s, the person answers on the page, the waiting agent gets the answer', async () => {
    const session = (await http.post('/sessions/register', { project_id: projectId, name: 'agent', human_id: 'ada' })).body;
    const agent = await connectMcp(testApp.url, undefined, 'http', 'hitl');
    try {
      await openView(page, `${testApp.url}/dashboard/projects/${projectId}/hitl`, /^Questions/);
      await page.getByText('No question is waiting for an answer.').waitFor();
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      await expectUsable(page, 'dashboard', 'inbox-empty', { themes: ['light'] });
      const normal = await callTool(agent, 'request_hitl', { project_id: projectId, session_id: session.id, question: 'Which colour for the logo?' });
      const asked = await callTool(agent, 'request_hitl', {
        project_id: projectId,
        session_id: session.id,
        question: 'May I drop the old table?',
        urgency: 'blocking',
        context: 'migration 42',
      });
      expect(asked.isError).toBe(false);
      const shownAt = Date.now();
      await page.getByRole('heading', { level: 2, name: 'May I drop the old table?' }).waitFor({ timeout: 1000 });
      expect(Date.now() - shownAt).toBeLessThan(1000);
      // Most urgent first.
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(['May I drop the old table?', 'Which colour for the logo?']);
      await expectUsable(page, 'dashboard', 'inbox-questions', { themes: ['light'] });
      const waiting = callTool(agent, 'get_hitl_request', { request_id: asked.value.id, wait: 20 });
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'May I drop the old table?' }) });
      await card.getByLabel('Your answer').fill('Yes, after the backup.');
      await card.getByRole('button', { name: 'Send answer' }).click();
      expect((await waiting).value).toMatchObject({ id: asked.value.id, status: 'answered', answer: 'Yes, after the backup.' });
      await page.getByRole('heading', { level: 2, name: 'May I drop the old table?' }).waitFor({ state: 'detached' });
      const other = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Which colour for the logo?' }) });
      await other.getByRole('button', { name: 'Dismiss' }).click();
      await page.getByText('No question is waiting for an answer.').waitFor();
      expect((await http.get(`/hitl/${normal.value.id}`)).body.status).toBe('dismissed');
      // Answered elsewhere (by another person, through the API): the page drops it live.
      const third = await callTool(agent, 'request_hitl', { project_id: projectId, session_id: session.id, question: 'Tag the release?' });
      await page.getByRole('heading', { level: 2, name: 'Tag the release?' }).waitFor({ timeout: 1000 });
      await http.patch(`/hitl/${third.value.id}`, { answer: 'yes' });
      await page.getByRole('heading', { level: 2, name: 'Tag the release?' }).waitFor({ state: 'detached', timeout: 1000 });
    } finally {
      await agent.close();
    }
  });

  test('the project switcher moves between views with the history API; Back returns; an unknown path shows not found', async () => {
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('combobox', { name: 'Project' }).selectOption(projectId);
    await page.getByRole('heading', { level: 1, name: /^Questions for / }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/dashboard/projects/${projectId}/hitl`);
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: /^Projects$/ }).waitFor();
    await openView(page, `${testApp.url}/dashboard/nowhere`, /^Page not found$/);
    await expectUsable(page, 'dashboard', 'not-found', { themes: ['light'] });
  });
});

describeBrowser('the dashboard with the keyboard alone', () => {
  let testApp: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    testApp = await startApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  test('skip link, a project link, then a question answered without the mouse', async () => {
    const http = new Http(testApp.url);
    const projectId = await createProject(http, 'Keys');
    const name = (await http.get(`/projects/${projectId}`)).body.name;
    const session = (await http.post('/sessions/register', { project_id: projectId, name: 'agent' })).body;
    const asked = (await http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Use tabs or spaces?' })).body;
    const page = await browser.newPage();
    const errors = pageErrors(page);
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('link', { name }).waitFor();
    const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim() as string);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Skip to content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(name);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Questions for ${name}` }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Use tabs or spaces?' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).toBe('TEXTAREA');
    await page.keyboard.type('Spaces.');
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Send answer');
    await page.keyboard.press('Enter');
    await page.getByText('No question is waiting for an answer.').waitFor();
    expect((await http.get(`/hitl/${asked.id}`)).body).toMatchObject({ status: 'answered', answer: 'Spaces.' });
    expect(errors).toEqual([]);
    await page.close();
  });
});

async function waitForSockets(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await sleep(50);
  expect(check()).toBe(true);
}

describeHostedBrowser('the dashboard in Chromium (hosted, signed in)', () => {
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

  test('a signed-in person sees their workspace live and answers a question; a project of another workspace is not found; an anonymous visitor lands on the sign-in page', async () => {
    const person = await signIn(testApp, freshEmail());
    const projectId = await createProject(person.http, 'Hosted');
    const context = await browser.newContext({ viewport: { width: 1024, height: 768 } });
    const [name, value] = person.cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect((await person.http.post(`/projects/${projectId}/rename`, { name: 'Hosted renamed' })).status).toBe(200);
    await page.getByRole('link', { name: 'Hosted renamed' }).waitFor({ timeout: 1000 });
    await expectUsable(page, 'dashboard', 'hosted-projects', { themes: ['light'] });

    // The inbox, answered with the session cookie (the page's PATCH carries Baton's Origin).
    const session = (await person.http.post('/sessions/register', { project_id: projectId, name: 'agent', human_id: 'me' })).body;
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/hitl`, /^Questions for Hosted renamed$/);
    const asked = (await person.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Deploy on Friday?', urgency: 'high' })).body;
    await page.getByRole('heading', { level: 2, name: 'Deploy on Friday?' }).waitFor({ timeout: 1000 });
    await page.getByLabel('Your answer').fill('No.');
    await page.getByRole('button', { name: 'Send answer' }).click();
    await page.getByText('No question is waiting for an answer.').waitFor();
    expect((await person.http.get(`/hitl/${asked.id}`)).body).toMatchObject({ status: 'answered', answer: 'No.' });
    expect(errors).toEqual([]);

    // Another workspace's project is unknown here, like an id that names nothing.
    const theirs = await createProject((await tenantClient(testApp, 'other workspace')).http, 'Theirs');
    for (const id of [theirs, randomUUID()]) {
      await openView(page, `${testApp.url}/dashboard/projects/${id}/hitl`, /^Questions$/);
      await page.getByRole('alert').filter({ hasText: 'Could not load the questions: project not found' }).waitFor();
    }
    await context.close();
    const anonymous = await browser.newPage();
    await anonymous.goto(`${testApp.url}/dashboard`);
    expect(new URL(anonymous.url()).pathname).toBe('/auth/login');
    await anonymous.close();
  });
});
