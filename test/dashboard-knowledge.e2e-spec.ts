import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freshEmail, signIn } from './support/accounts';
import { describeBrowser, describeHostedBrowser, expectUsable, launchChromium, openView, pageErrors, requireBuiltDashboard } from './support/chromium';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

beforeAll(requireBuiltDashboard);

/**
 * Takes out of `errors` the console lines Chromium writes for requests Baton refused on purpose
 * (the test sent bad input): `count` of them with `status`, no more, no fewer.
 */
function refusedOnPurpose(errors: string[], status: number, count: number): void {
  const line = `console: Failed to load resource: the server responded with a status of ${status} (${status === 400 ? 'Bad Request' : 'Not Found'})`;
  expect(errors.filter((e) => e === line)).toHaveLength(count);
  errors.splice(0, errors.length, ...errors.filter((e) => e !== line));
}

const pageWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

describeBrowser('knowledge, profile and settings views in Chromium (self-hosted, SQLite)', () => {
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
    page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    errors = pageErrors(page);
  });
  afterEach(async () => {
    await page.close();
    expect(errors).toEqual([]);
  });

  test('knowledge: what an agent pins, logs, notes and learns over MCP shows within 1 s; a deleted note goes away; 375 px, both themes', async () => {
    const projectId = await createProject(http, 'Atlas');
    const agent = await connectMcp(testApp.url, undefined, 'http', 'notes,decisions');
    try {
      await openView(page, `${testApp.url}/dashboard/projects/${projectId}/knowledge`, /^Knowledge of Atlas /);
      await page.getByText('No decision is pinned.').waitFor();
      await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
      expect(await page.getByRole('link', { name: 'Knowledge' }).getAttribute('aria-current')).toBe('page');

      await callTool(agent, 'pin_decision', { project_id: projectId, title: 'Postgres for hosted tenants', body: 'One schema per tenant.' });
      await page.getByRole('heading', { level: 3, name: 'Postgres for hosted tenants' }).waitFor({ timeout: 1000 });
      await callTool(agent, 'log_decision', { project_id: projectId, title: 'Dropped the cron job' });
      await page.getByRole('heading', { level: 3, name: 'Dropped the cron job' }).waitFor({ timeout: 1000 });
      const note = await callTool(agent, 'add_note', { project_id: projectId, title: 'Release checklist', body: 'Tag, build, publish.', tags: ['release'] });
      await page.getByRole('heading', { level: 3, name: 'Release checklist' }).waitFor({ timeout: 1000 });
      expect(await page.getByRole('list', { name: 'Tags' }).getByText('release').count()).toBe(1);
      await callTool(agent, 'add_insight', { project_id: projectId, title: 'Users want offline mode', horizon: 'year' });
      await page.getByText('horizon: year').waitFor({ timeout: 1000 });
      expect(await pageWidth(page)).toBeLessThanOrEqual(375);
      await expectUsable(page, 'dashboard-knowledge', 'knowledge');

      expect((await callTool(agent, 'delete_note', { project_id: projectId, note_id: note.value.id })).isError).toBe(false);
      await page.getByText('No note yet.').waitFor({ timeout: 1000 });
      // Another project's changes do not reach this page.
      const other = await createProject(http, 'Elsewhere');
      await callTool(agent, 'add_note', { project_id: other, title: 'Not for Atlas' });
      await page.waitForTimeout(300);
      expect(await page.getByText('Not for Atlas').count()).toBe(0);
    } finally {
      await agent.close();
    }
  });

  test('settings: a refused value is shown beside its field and nothing changes; a good one is saved; the profile shows each value and where it comes from, live', async () => {
    const projectId = await createProject(http, 'Beacon');
    const before = (await http.get(`/projects/${projectId}/settings`)).body;
    await openView(page, `${testApp.url}/dashboard/projects/${projectId}/settings`, /^Settings of Beacon /);
    await page.getByLabel('Fewest tests a change comes with').fill('-1');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const testMin = page.getByLabel('Fewest tests a change comes with');
    await page.locator('#test_min-error').filter({ hasText: 'test_min' }).waitFor();
    expect(await testMin.getAttribute('aria-invalid')).toBe('true');
    expect((await http.get(`/projects/${projectId}/settings`)).body).toEqual(before);

    await testMin.fill('');
    await page.getByLabel('Most pinned decisions').fill('7');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByRole('form', { name: 'Project' }).getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await http.get(`/projects/${projectId}/settings`)).body.max_pinned_decisions).toBe(7);

    await page.getByLabel('Notify e-mail').fill('not an address');
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.locator('#notify_email-error').filter({ hasText: 'notify_email must be an e-mail address' }).waitFor();
    expect((await http.get(`/projects/${projectId}/ntfy`)).body).toEqual({ project_id: projectId, notify_url: null, notify_email: null });
    refusedOnPurpose(errors, 400, 2);
    await page.getByLabel('Notify e-mail').fill('owner@example.test');
    await page.getByRole('button', { name: 'Save notifications' }).click();
    await page.getByRole('form', { name: 'Notifications' }).getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await http.get(`/projects/${projectId}/ntfy`)).body.notify_email).toBe('owner@example.test');
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await expectUsable(page, 'dashboard-knowledge', 'settings');

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { level: 1, name: /^Effective profile of Beacon / }).waitFor();
    const row = (field: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: field, exact: true }) });
    await row('max_pinned_decisions').getByRole('cell', { name: '7' }).waitFor();
    expect(await row('max_pinned_decisions').getByRole('cell').nth(1).textContent()).toMatch(/project/);
    expect(await row('execution_mode').getByRole('cell').nth(1).textContent()).toBe('built-in default');
    // An agent changes a setting over MCP: the open profile follows.
    const agent = await connectMcp(testApp.url, undefined, 'http', 'settings');
    try {
      expect((await callTool(agent, 'update_project_settings', { project_id: projectId, execution_mode: 'autonomous' })).isError).toBe(false);
    } finally {
      await agent.close();
    }
    await row('execution_mode').getByRole('cell', { name: 'autonomous' }).waitFor({ timeout: 1000 });
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await expectUsable(page, 'dashboard-knowledge', 'profile');
  });

  test('self-hosted: no account link; the account page says there are no accounts', async () => {
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    expect(await page.getByRole('link', { name: 'Account' }).count()).toBe(0);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/);
    await page.getByText('This Baton is self-hosted').waitFor();
  });
});

describeHostedBrowser('the account view in Chromium (hosted, signed in)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];
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

  async function signedInPage(cookie: string): Promise<void> {
    context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: testApp.url });
    const [name, value] = cookie.split(/=(.*)/s);
    await context.addCookies([{ name, value, url: testApp.url }]);
    page = await context.newPage();
    errors = pageErrors(page);
  }
  afterEach(async () => {
    await context?.close();
    expect(errors).toEqual([]);
  });

  test('API tokens: a new token is shown once with a copy button and works; revoked, it stops working', async () => {
    const person = await signIn(testApp, freshEmail());
    await signedInPage(person.cookie);
    await openView(page, `${testApp.url}/dashboard`, /^Projects$/);
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await page.getByText('No token yet.').waitFor();

    await page.getByRole('button', { name: 'Create token' }).click();
    await page.locator('#token-label-error').filter({ hasText: 'label' }).waitFor();
    expect((await person.http.get('/auth/tokens')).body).toEqual([]);
    refusedOnPurpose(errors, 400, 1);

    await page.getByLabel('What it is for').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.locator('#new-token-value');
    await shown.waitFor();
    const token = (await shown.textContent())!;
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(token);
    const bearer = new Http(testApp.url).withHeaders({ authorization: `Bearer ${token}` });
    expect((await bearer.get('/projects')).status).toBe(200);
    expect(await page.getByRole('list', { name: 'API tokens' }).getByRole('listitem').count()).toBe(1);
    expect(await pageWidth(page)).toBeLessThanOrEqual(375);
    await expectUsable(page, 'dashboard-knowledge', 'account-tokens');

    await page.reload();
    await page.getByRole('list', { name: 'API tokens' }).getByText('laptop').waitFor();
    expect(await page.locator('#new-token-value').count()).toBe(0);
    expect(await page.content()).not.toContain(token);
    await page.getByRole('button', { name: 'Revoke token laptop' }).click();
    await page.getByText('No token yet.').waitFor();
    expect((await bearer.get('/projects')).status).toBe(401);
  });

  test('people: an invitation with a bad address is refused beside the field; a good one is listed; a role changes in place', async () => {
    const owner = await signIn(testApp, freshEmail('owner'));
    await signedInPage(owner.cookie);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/);
    await page.getByLabel('E-mail address').fill('nobody');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.locator('#invite-email-error').filter({ hasText: 'email must be an e-mail address' }).waitFor();
    expect((await owner.http.get('/workspace/members')).body).toHaveLength(1);
    refusedOnPurpose(errors, 400, 1);

    const invitee = freshEmail('invitee');
    await page.getByLabel('E-mail address').fill(invitee);
    await page.getByRole('button', { name: 'Send invitation' }).click();
    const people = page.getByRole('list', { name: 'Members and invitations' });
    await people.getByText(invitee).waitFor();
    const patched = page.waitForResponse((r) => r.url().includes('/workspace/members/') && r.request().method() === 'PATCH');
    await page.getByLabel(`Role of ${invitee}`).selectOption('admin');
    expect((await patched).status()).toBe(200);
    const listed = (await owner.http.get('/workspace/members')).body as { email: string }[];
    expect(listed.find((m) => m.email === invitee)).toMatchObject({ role: 'admin', status: 'invited' });
    await expectUsable(page, 'dashboard-knowledge', 'account-people');
    await page.getByRole('button', { name: `Remove ${invitee}` }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `${invitee} removed.` })
      .waitFor();
    expect((await owner.http.get('/workspace/members')).body).toHaveLength(1);
  });

  test("web sessions and workspaces: another session is revoked from the page; switching workspace shows that workspace's projects", async () => {
    const email = freshEmail('alice');
    const alice = await signIn(testApp, email);
    const otherBrowser = await signIn(testApp, email);
    const bob = await tenantClient(testApp, 'bob workspace');
    await createProject(bob.http, "Bob's project");
    await createProject(alice.http, "Alice's project");
    await db.query(
      "INSERT INTO control.memberships (id, tenant_id, account_id, email, role, status, created_at, joined_at) VALUES ($1, $2, $3, $4, 'member', 'active', now(), now())",
      [randomUUID(), bob.tenant_id, alice.accountId, email],
    );
    await signedInPage(alice.cookie);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/);
    const sessions = page.getByRole('list', { name: 'Web sessions' });
    await sessions.getByRole('listitem').nth(1).waitFor();
    expect(await sessions.getByRole('listitem').count()).toBe(2);
    await sessions.getByRole('button', { name: /^Revoke the session from/ }).click();
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('[aria-label="Web sessions"] li').length === 1);
    expect((await otherBrowser.http.get('/projects')).status).toBe(401);
    expect((await alice.http.get('/projects')).status).toBe(200);

    await page.getByLabel('Work in').selectOption(bob.tenant_id);
    await page.getByRole('button', { name: 'Switch workspace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await page.getByRole('link', { name: "Bob's project" }).waitFor();
    expect(await page.getByRole('link', { name: "Alice's project" }).count()).toBe(0);
    await openView(page, `${testApp.url}/dashboard/account`, /^Account$/);
    await expectUsable(page, 'dashboard-knowledge', 'account-workspaces');
  });
});
