import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { checkoutFolder } from '../src/modules/pages/site-content';
import { describeBrowser, describeHostedBrowser, launchChromium, pageErrors, screenshotFolder, seriousA11yViolations } from './support/chromium';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { freshEmail, signIn } from './support/accounts';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

/** The onboarding check has turned green (evaluated in the page). */
const GREEN = "document.getElementById('first-session')?.className === 'status ok'";

const PAGES = ['/', '/pricing', '/onboarding', '/setup', '/demo'];

describeBrowser('the public pages in Chromium (self-hosted)', () => {
  let testApp: TestApp;
  let browser: Browser;
  const shots = screenshotFolder('pages');

  beforeAll(async () => {
    testApp = await startApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  async function open(path: string, width: number, colorScheme: 'light' | 'dark'): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width, height: 800 }, colorScheme });
    const errors = pageErrors(page);
    const res = await page.goto(testApp.url + path);
    expect([path, res?.status()]).toEqual([path, 200]);
    await page.waitForLoadState('networkidle');
    return { page, errors };
  }

  test.each(PAGES)('%s: no serious axe violation, no console error, fits 375 px, in light and dark', async (path) => {
    for (const [width, scheme] of [
      [1280, 'light'],
      [375, 'light'],
      [375, 'dark'],
    ] as const) {
      const { page, errors } = await open(path, width, scheme);
      expect([path, width, scheme, await seriousA11yViolations(page)]).toEqual([path, width, scheme, []]);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      const name = (path.slice(1) || 'home').replace(/\W+/g, '-');
      await page.screenshot({ path: join(shots, `${name}-${width}-${scheme}.png`), fullPage: true });
      expect([path, errors]).toEqual([path, []]);
      await page.close();
    }
  });

  test('the home page shows the board screenshot, taken of a real board', async () => {
    const http = new Http(testApp.url);
    const projectId = await createProject(http, 'Checkout service');
    const session = async (name: string) => (await http.post('/sessions/register', { project_id: projectId, name })).body.id as string;
    const [ada, lin] = [await session('ada-sonnet'), await session('lin-opus')];
    const add = async (title: string, extra: Record<string, unknown> = {}) =>
      (await http.post(`/projects/${projectId}/sprint-items`, { title, version: 'v2', ...extra })).body.id as string;
    const schema = await add('Migrate the orders table to the new schema', { group: 'data' });
    await add('Backfill order totals', { group: 'data' });
    await add('Add retry with backoff to the payment client', { group: 'payments' });
    await add('Show the refund status on the receipt page', { group: 'web' });
    const done = await add('Split the checkout controller', { group: 'web' });
    const claimed = await http.post(`/projects/${projectId}/sprint-items/${schema}/claim`, { session_id: ada });
    expect([claimed.status, claimed.text]).toEqual([200, claimed.text]);
    expect((await http.post(`/projects/${projectId}/sprint-items/${done}/claim`, { session_id: lin })).status).toBe(200);
    const completed = await http.post(`/projects/${projectId}/sprint-items/${done}/complete`, { session_id: lin });
    expect([completed.status, completed.text]).toEqual([200, completed.text]);
    const { page } = await open(`/dashboard/projects/${projectId}/board`, 1200, 'light');
    await page.waitForFunction("performance.getEntriesByName('baton:board-rendered').length > 0");
    const board = join(shots, 'board.png');
    await page.screenshot({ path: board });
    await page.close();
    // Gone again, with its sessions: the onboarding test below waits for a first session.
    expect((await http.delete(`/projects/${projectId}`)).status).toBe(204);
    // BATON_UPDATE_BOARD_PNG=1 refreshes the committed picture from this run's board.
    if (process.env.BATON_UPDATE_BOARD_PNG === '1') copyFileSync(board, join(checkoutFolder('public'), 'board.png'));
    const home = await open('/', 1280, 'light');
    const size = await home.page
      .locator('img[src="/static/board.png"]')
      .evaluate((img) => ({ w: (img as unknown as { naturalWidth: number }).naturalWidth, h: (img as unknown as { naturalHeight: number }).naturalHeight }));
    expect(size.w).toBeGreaterThan(0);
    expect(size.h).toBeGreaterThan(0);
    await home.page.close();
  });

  test('keyboard: the skip link is the first stop and leads to the content', async () => {
    const { page } = await open('/pricing', 1280, 'light');
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('location.hash')).toBe('#main');
    await page.close();
  });

  test('/onboarding turns green live when an assistant starts its first session over MCP, and at once on a later visit', async () => {
    const { page, errors } = await open('/onboarding', 375, 'light');
    const status = page.locator('#first-session');
    await expect(status.textContent()).resolves.toBe('Waiting for the first session…');
    expect(await status.getAttribute('class')).toBe('status waiting');
    const projectId = await createProject(new Http(testApp.url), 'onboarding');
    const client = await connectMcp(testApp.url);
    const started = await callTool(client, 'start_session', { project_id: projectId, name: 'first-assistant' });
    expect(started.isError).toBe(false);
    await client.close();
    await page.waitForFunction(GREEN, undefined, { timeout: 5000 });
    expect(await status.textContent()).toBe('First session seen: first-assistant. Your assistant is connected.');
    await page.screenshot({ path: join(shots, 'onboarding-green.png'), fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();

    const later = await open('/onboarding', 1280, 'dark');
    await later.page.waitForFunction(GREEN, undefined, { timeout: 5000 });
    expect(await later.page.locator('#first-session').textContent()).toContain('first-assistant');
    expect(later.errors).toEqual([]);
    await later.page.close();
  });
});

describeHostedBrowser('/onboarding in Chromium (hosted, signed in)', () => {
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

  test("the check stays waiting for another workspace's session and turns green for one of the person's own workspace", async () => {
    const person = await signIn(testApp, freshEmail());
    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const [name, value] = person.cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    expect((await page.goto(`${testApp.url}/onboarding`))?.status()).toBe(200);
    expect(await page.getByRole('link', { name: 'create a token' }).getAttribute('href')).toBe('/auth/install');
    const status = page.locator('#first-session');

    const other = await tenantClient(testApp, 'other workspace');
    const theirs = await createProject(other.http, 'Theirs');
    expect((await other.http.post('/sessions/register', { project_id: theirs, name: 'not-yours' })).status).toBe(201);
    await sleep(500);
    expect(await status.getAttribute('class')).toBe('status waiting');

    const projectId = await createProject(person.http, 'Mine');
    const { token } = (await person.http.post('/auth/tokens', { label: 'assistant' })).body;
    const client = await connectMcp(testApp.url, token);
    expect((await callTool(client, 'start_session', { project_id: projectId, name: 'my-assistant' })).isError).toBe(false);
    await client.close();
    await page.waitForFunction(GREEN, undefined, { timeout: 5000 });
    expect(await status.textContent()).toBe('First session seen: my-assistant. Your assistant is connected.');
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('signed out, the check says to sign in instead of waiting for ever', async () => {
    const page = await browser.newPage();
    expect((await page.goto(`${testApp.url}/onboarding`))?.status()).toBe(200);
    await page.locator('#first-session', { hasText: 'Sign in to see your sessions here.' }).waitFor({ timeout: 5000 });
    await page.close();
  });
});
