import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freshEmail, signIn } from './support/accounts';
import { describeBrowser, describeHostedBrowser, expectUsable, launchChromium, openView, pageErrors, requireBuiltDashboard } from './support/chromium';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { hostedEnv, startApp, TestApp } from './support/test-app';

beforeAll(requireBuiltDashboard);

const SUITE = 'dashboard-account-flows';

describeBrowser('plan, data and project deletion in Chromium (self-hosted, SQLite)', () => {
  let testApp: TestApp;
  let http: Http;
  let browser: Browser;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    testApp = await startApp();
    http = new Http(testApp.url);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 375, height: 800 }, acceptDownloads: true });
    errors = pageErrors(page);
  });
  afterEach(async () => {
    await page.close();
    expect(errors).toEqual([]);
  });

  test("the plan view shows this month's usage, no push budget, and downloads the workspace as a SQLite file that holds its projects", async () => {
    const projectId = await createProject(http, 'Exported from the page');
    await openView(page, `${testApp.url}/dashboard/`, /^Projects$/);
    await page.getByRole('link', { name: 'Plan and data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plan and data' }).waitFor();
    await page.getByText('A self-hosted Baton has no push budget.').waitFor();
    await page
      .getByRole('definition')
      .filter({ hasText: /included$/ })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to the paid plan' }).count()).toBe(0);
    await expectUsable(page, SUITE, 'plan-self-hosted', { maxWidth: 375 });

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the workspace as SQLite' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^baton-workspace-.*\.sqlite$/);
    const file = await download.path();
    const copy = new Database(file, { readonly: true });
    try {
      expect(copy.prepare('SELECT count(*) FROM projects WHERE id = ?').pluck().get(projectId)).toBe(1);
    } finally {
      copy.close();
    }
  });

  test('deleting a project needs its exact name typed; then it is gone and the page goes back to the projects', async () => {
    const projectId = await createProject(http, 'Doomed');
    const name = (await http.get(`/projects/${projectId}`)).body.name as string;
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/settings`, /^Settings of Doomed /);
    const button = page.getByRole('button', { name: 'Delete the project' });
    const field = page.getByLabel(/Type the project's name/);
    await field.fill('Doomed');
    expect(await button.isDisabled()).toBe(true);
    expect((await http.get(`/projects/${projectId}`)).status).toBe(200);
    await expectUsable(page, SUITE, 'delete-project', { themes: ['light'], maxWidth: 375 });
    await field.fill(name);
    await button.click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    expect((await http.get(`/projects/${projectId}`)).status).toBe(404);
  });
});

describeHostedBrowser('the upgrade button, the push budget and the account flows in Chromium (hosted, signed in)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { BILLING_PAYMENT_LINK: 'https://pay.example.test/baton', SERVICE_PLAN_CACHE_SECONDS: '0' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
    await db?.drop();
  });

  async function signedInPage(cookie: string): Promise<void> {
    context = await browser.newContext({ viewport: { width: 375, height: 800 }, acceptDownloads: true });
    const [name, value] = cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    page = await context.newPage();
    errors = pageErrors(page);
  }
  afterEach(async () => {
    await context?.close();
    expect(errors).toEqual([]);
  });

  test('a free workspace sees the upgrade button leading to checkout; on the paid plan it sees its push budget instead', async () => {
    const person = await signIn(testApp, freshEmail('payer'));
    await signedInPage(person.cookie);
    // From the public pricing page to the workspace's own upgrade button.
    await page.goto(`${testApp.url}/pricing`);
    await page.getByRole('link', { name: 'Upgrade your workspace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Plan and data' }).waitFor();
    const upgrade = page.getByRole('link', { name: 'Upgrade to the paid plan' });
    await upgrade.waitFor();
    expect(await upgrade.getAttribute('href')).toBe('/checkout');
    const checkout = await person.http.get('/checkout');
    expect(checkout.status).toBe(303);
    expect(checkout.headers.get('location')).toMatch(/^https:\/\/pay\.example\.test\/baton\?client_reference_id=/);
    await page.getByText('Live push is part of the paid plan').waitFor();
    await expectUsable(page, SUITE, 'plan-free', { maxWidth: 375 });

    await db.query('UPDATE control.tenants SET plan = $1 WHERE id = $2', ['paid', person.tenantId]);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Push budget' }).waitFor();
    await page.getByText(/of 1,000,000 push commands/).waitFor();
    await page.getByText('within budget').waitFor();
    expect(await page.getByRole('link', { name: 'Upgrade to the paid plan' }).count()).toBe(0);
    await expectUsable(page, SUITE, 'plan-paid-budget', { maxWidth: 375 });
  });

  test('the web sessions list follows a sign-in and a sign-out made elsewhere at once, without a reload', async () => {
    const email = freshEmail('traveller');
    const person = await signIn(testApp, email);
    await signedInPage(person.cookie);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/, { live: true });
    const sessions = page.getByRole('list', { name: 'Web sessions' }).getByRole('listitem');
    await sessions.first().waitFor();
    expect(await sessions.count()).toBe(1);
    const elsewhere = await signIn(testApp, email);
    // Live: the page is never reloaded here, so only the pushed event can change the list (5 s leaves room for a loaded CI machine).
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-label="Web sessions"] > li').length === 2, undefined, { timeout: 5000 });
    expect((await elsewhere.http.get('/auth/logout')).status).toBe(303);
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-label="Web sessions"] > li').length === 1, undefined, { timeout: 5000 });
  });

  test('export my data downloads the JSON of /export/my-data; deleting the account needs DELETE typed, then the person is signed out and gone', async () => {
    const email = freshEmail('leaver');
    const person = await signIn(testApp, email);
    await signedInPage(person.cookie);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export my data (JSON)' }).click()]);
    const exported = JSON.parse(readFileSync(await download.path(), 'utf8'));
    expect(exported).toMatchObject({ format: 'baton-account-export', account: { email } });

    const field = page.getByLabel('Type DELETE to confirm');
    const button = page.getByRole('button', { name: 'Delete my account' });
    await field.fill('delete');
    expect(await button.isDisabled()).toBe(true);
    await expectUsable(page, SUITE, 'account-delete', { themes: ['light'], maxWidth: 375 });
    await field.fill('DELETE');
    await button.click();
    await page.waitForURL(`${testApp.url}/`);
    expect((await person.http.get('/me')).body).not.toMatchObject({ account: { email } });
    expect(await db.query('SELECT id FROM control.accounts WHERE id = $1', [person.accountId])).toEqual([]);
  });
});
