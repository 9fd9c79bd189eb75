import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD } from './support/admin';
import { describeBrowser, launchChromium, pageErrors, screenshotFolder, seriousA11yViolations } from './support/chromium';
import { Http } from './support/http';
import { startApp, TestApp } from './support/test-app';

describeBrowser('the admin console in Chromium', () => {
  let testApp: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD });
    browser = await launchChromium();
    const anyone = new Http(testApp.url);
    expect((await anyone.post('/waitlist', { email: 'dora@example.test', note: 'for a team of 4' })).status).toBe(201);
    expect((await anyone.post('/waitlist', { email: 'eli@example.test' })).status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await testApp?.close();
  });

  test('an admin signs in with the password, sees health and the waitlist, deletes an entry with its button; axe-clean, 375 px wide and dark', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 800 }, colorScheme: 'dark' });
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${testApp.url}/admin/login?next=/admin`);
    await page.getByLabel('Admin password').fill(ADMIN_PASSWORD);
    await Promise.all([page.waitForURL(`${testApp.url}/admin`), page.getByRole('button', { name: /sign in|continue|enter/i }).click()]);

    await expect(page.getByRole('heading', { name: 'Health' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('row', { name: /Status ok/ }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: 'Waitlist (2)' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('cell', { name: 'dora@example.test', exact: true }).isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(screenshotFolder('admin'), 'console-375-dark.png'), fullPage: true });

    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Delete dora@example.test' }).click()]);
    await page.waitForURL(`${testApp.url}/admin#waitlist`);
    expect(await page.locator('script').count()).toBe(0);
    await expect(page.getByRole('heading', { name: 'Waitlist (1)' }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('cell', { name: 'eli@example.test', exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('row', { name: /admin password waitlist\.delete dora@example\.test/ }).isVisible()).resolves.toBe(true);

    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the console reads well in the light theme on a wide screen, axe-clean', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const login = await new Http(testApp.url).post('/admin/login', { password: ADMIN_PASSWORD });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('baton_admin='))!
      .split(';')[0]
      .split('=');
    await context.addCookies([{ name: cookie[0], value: cookie[1], url: testApp.url }]);
    const page = await context.newPage();
    const errors = pageErrors(page);
    await page.goto(`${testApp.url}/admin`);
    await expect(page.getByRole('heading', { name: 'Baton admin' }).isVisible()).resolves.toBe(true);
    await page.screenshot({ path: join(screenshotFolder('admin'), 'console-wide-light.png'), fullPage: true });
    expect(await seriousA11yViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
