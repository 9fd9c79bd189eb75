import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../src/config/app-config';
import { freshEmail, signIn } from './support/accounts';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const ADMIN_PASSWORD = 'admin-pw-Zr5t8Kq2w9';
const ADMIN_EMAILS = 'Boss@Example.test, ops@example.test';

/** The `baton_admin=...` pair of a Set-Cookie answer, ready for a Cookie header. */
function adminCookie(headers: Headers): string {
  const line = headers.getSetCookie().find((c) => c.startsWith('baton_admin='));
  if (!line) throw new Error('no admin cookie was set');
  return line.split(';')[0];
}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' };
}

describePostgres('admin identity, hosted', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let http: Http;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_ADMIN_EMAILS: ADMIN_EMAILS, SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD }));
    http = new Http(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('GET /admin/health without anyone signed in is 401, with a workspace token too', async () => {
    const anonymous = await http.get('/admin/health');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.detail).toMatch(/for Baton admins/);
    const tenant = await tenantClient(testApp, 'token-holder');
    const byToken = await tenant.http.get('/admin/health');
    expect(byToken.status).toBe(401);
  });

  test('a signed-in person whose address is not listed is refused with 403', async () => {
    const person = await signIn(testApp, freshEmail('not-boss'));
    const res = await person.http.get('/admin/health');
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(/not one/);
  });

  test('a person signed in with a listed address (any case) is an admin and reads the instance health', async () => {
    await signIn(testApp, freshEmail('someone'));
    const boss = await signIn(testApp, 'boss@example.test');
    const res = await boss.http.get('/admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      mode: 'hosted',
      database: 'postgres',
      version: testApp.config.version,
      components: { database: { status: 'ok' } },
      node_version: process.version,
      uptime_s: expect.any(Number),
      memory_mb: { rss: expect.any(Number), heap_used: expect.any(Number) },
    });
    const [counts] = await db.query<{ workspaces: string; accounts: string }>(
      "SELECT (SELECT count(*) FROM control.tenants WHERE status = 'active') AS workspaces, (SELECT count(*) FROM control.accounts) AS accounts",
    );
    expect(res.body.workspaces).toBe(Number(counts.workspaces));
    expect(res.body.accounts).toBe(Number(counts.accounts));
    expect(res.text).not.toContain(db.url);
    expect(res.text).not.toContain(ADMIN_PASSWORD);
  });

  test('the admin password by JSON sets a signed HttpOnly cookie for 12 hours that opens the admin routes', async () => {
    const res = await http.post('/admin/login', { password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'signed in as admin', expires_at: expect.any(String), next: '/admin' });
    const hours = (Date.parse(res.body.expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(11.9);
    expect(hours).toBeLessThanOrEqual(12);
    const line = res.headers.getSetCookie().find((c) => c.startsWith('baton_admin='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Max-Age=43200/);
    expect(line).not.toContain(ADMIN_PASSWORD);
    const health = await http.get('/admin/health', { cookie: adminCookie(res.headers) });
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
  });

  test('the login page posts a form that redirects to a same-origin next', async () => {
    const page = await fetch(`${testApp.url}/admin/login?next=/admin/stats`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/admin/login">');
    expect(html).toContain('name="next" value="/admin/stats"');
    const ok = await fetch(`${testApp.url}/admin/login`, form({ password: ADMIN_PASSWORD, next: '/admin/health' }));
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('/admin/health');
    expect((await http.get('/admin/health', { cookie: adminCookie(ok.headers) })).status).toBe(200);
    const elsewhere = await fetch(`${testApp.url}/admin/login`, form({ password: ADMIN_PASSWORD, next: 'https://evil.example/' }));
    expect(elsewhere.headers.get('location')).toBe('/admin');
    const wrong = await fetch(`${testApp.url}/admin/login`, form({ password: 'not-the-password' }));
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('wrong admin password');
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  test('a wrong or missing password sets no cookie; a forged cookie opens nothing', async () => {
    const wrong = await http.post('/admin/login', { password: 'not-the-password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'wrong admin password' });
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const missing = await http.post('/admin/login', {});
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/password/);
    const unknownField = await http.post('/admin/login', { password: ADMIN_PASSWORD, role: 'root' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.detail).toMatch(/role/);
    const far = Math.floor(Date.now() / 1000) + 3600;
    for (const cookie of [`baton_admin=${far}.${'A'.repeat(43)}`, 'baton_admin=yes', 'baton_admin=']) {
      expect((await http.get('/admin/health', { cookie })).status).toBe(401);
    }
  });

  test('every admin password attempt is logged with its outcome and client, never the password', async () => {
    const before = testApp.logs.length;
    const guess = `guess-${randomUUID()}`;
    expect((await http.post('/admin/login', { password: guess })).status).toBe(401);
    expect((await http.post('/admin/login', { password: ADMIN_PASSWORD })).status).toBe(200);
    const lines = testApp.logs.slice(before);
    const attempts = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.msg === 'admin password attempt');
    expect(attempts.map((a) => [a.level, a.outcome, a.context])).toEqual([
      ['warn', 'wrong', 'admin-login'],
      ['warn', 'open', 'admin-login'],
    ]);
    expect(attempts.every((a) => typeof a.client === 'string')).toBe(true);
    expect(lines.join('\n')).not.toContain(guess);
    expect(lines.join('\n')).not.toContain(ADMIN_PASSWORD);
  });

  test('POST /admin/logout clears the admin cookie', async () => {
    const res = await http.post('/admin/logout');
    expect(res.status).toBe(204);
    const line = res.headers.getSetCookie().find((c) => c.startsWith('baton_admin='))!;
    expect(line).toMatch(/^baton_admin=;/);
    expect(line).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});

describePostgres('admin identity, other settings', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await TestDatabase.create();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('a client past 10 admin password attempts a minute is answered 429 with Retry-After, the right password included', async () => {
    const testApp = await startApp(hostedEnv(db.url, { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD }));
    try {
      const http = new Http(testApp.url);
      for (let i = 0; i < 10; i++) expect((await http.post('/admin/login', { password: `guess-${i}` })).status).toBe(401);
      const limited = await http.post('/admin/login', { password: ADMIN_PASSWORD });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body.code).toBe('RATE_LIMITED');
      expect(limited.headers.getSetCookie()).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  test('without SERVICE_ADMIN_PASSWORD /admin/login does not exist, a cookie of another password opens nothing, and listed addresses still work', async () => {
    const withPassword = await startApp(hostedEnv(db.url, { SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD }));
    const without = await startApp(hostedEnv(db.url, { SERVICE_ADMIN_EMAILS: ADMIN_EMAILS }));
    const otherPassword = await startApp(hostedEnv(db.url, { SERVICE_ADMIN_PASSWORD: `${ADMIN_PASSWORD}-other` }));
    try {
      const login = await new Http(withPassword.url).post('/admin/login', { password: ADMIN_PASSWORD });
      const cookie = adminCookie(login.headers);
      const http = new Http(without.url);
      expect((await http.get('/admin/login')).status).toBe(404);
      const post = await http.post('/admin/login', { password: ADMIN_PASSWORD });
      expect(post.status).toBe(404);
      expect(post.body.detail).toMatch(/SERVICE_ADMIN_PASSWORD/);
      expect((await http.get('/admin/health', { cookie })).status).toBe(401);
      expect((await new Http(otherPassword.url).get('/admin/health', { cookie })).status).toBe(401);
      const ops = await signIn(without, 'ops@example.test');
      expect((await ops.http.get('/admin/health')).status).toBe(200);
    } finally {
      await Promise.all([withPassword.close(), without.close(), otherPassword.close()]);
    }
  });
});

describe('admin identity, self-hosted', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('the admin password works without accounts; health has no workspace counts', async () => {
    const http = new Http(testApp.url);
    expect((await http.get('/admin/health')).status).toBe(401);
    const login = await http.post('/admin/login', { password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    const health = await http.get('/admin/health', { cookie: adminCookie(login.headers) });
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'ok', mode: 'self-hosted', database: 'sqlite', workspaces: null, accounts: null });
  });

  test('a short admin password or a malformed admin address stops the start, without repeating the password', () => {
    const short = () => loadConfig({ SERVICE_ADMIN_PASSWORD: 'short-pw' });
    expect(short).toThrow(ConfigError);
    expect(short).toThrow(/SERVICE_ADMIN_PASSWORD must be at least 12 characters/);
    try {
      short();
    } catch (error) {
      expect((error as Error).message).not.toContain('short-pw');
    }
    expect(() => loadConfig({ SERVICE_ADMIN_EMAILS: 'boss@example.test, not-an-address' })).toThrow(/SERVICE_ADMIN_EMAILS .*not-an-address/);
  });
});
