import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import WebSocket from 'ws';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const PASSWORD = 'gate-pw-Qm4r8Zt1';
const SECRET = 'site-gate-suite-session-secret-0123456789';

/** The `baton_gate=...` pair of a Set-Cookie answer, ready for a Cookie header. */
function gateCookie(headers: Headers): string {
  const line = headers.getSetCookie().find((c) => c.startsWith('baton_gate='));
  if (!line) throw new Error('no gate cookie was set');
  return line.split(';')[0];
}

async function enter(url: string, password = PASSWORD): Promise<string> {
  const res = await new Http(url).post('/__gate__', { password });
  expect(res.status).toBe(200);
  return gateCookie(res.headers);
}

function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' };
}

/** Opens /ws; resolves with the HTTP status of a refused upgrade, or 101 and the socket when it opens. */
function openSocket(url: string, headers: Record<string, string>): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace('http', 'ws') + '/ws', { headers });
    ws.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
    ws.on('open', () => resolve({ status: 101, ws }));
    ws.on('error', reject);
  });
}

describe('site gate, self-hosted on SQLite', () => {
  let testApp: TestApp;
  let http: Http;
  /** Taken once: every password post counts against the suite's one client address (10 a minute). */
  let cookie: string;

  beforeAll(async () => {
    testApp = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: SECRET });
    http = new Http(testApp.url);
    cookie = await enter(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('/health and what lies under it, and /demo, answer without the password', async () => {
    expect((await http.get('/health')).status).toBe(200);
    expect((await http.get('/health/deep')).status).toBe(200);
    expect((await http.get('/HEALTH')).status).toBe(200);
    // The public demo page itself; a path under /demo that names nothing is the router's 404, not the gate's 401.
    const demo = await http.get('/demo');
    expect(demo.status).toBe(200);
    expect(demo.text).toContain('<h1>Demo project:');
    const under = await http.get('/demo/nothing-here');
    expect(under.status).toBe(404);
    expect(under.body.detail).toMatch(/no such route/);
  });

  test('an API client without the cookie is answered 401 {detail} naming the gate, and nothing behind it runs', async () => {
    const res = await http.post('/projects', { name: 'behind-the-gate' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.stringContaining('/__gate__'), code: 'SITE_PASSWORD_REQUIRED' });
    const list = await http.get('/projects', { cookie });
    expect(list.status).toBe(200);
    expect(list.body.map((p: { name: string }) => p.name)).not.toContain('behind-the-gate');
  });

  test('a browser without the cookie gets the password page, whose form returns it to the page it asked for', async () => {
    const res = await fetch(`${testApp.url}/projects?x=1`, { headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('<form method="post" action="/__gate__">');
    expect(page).toContain('name="next" value="/projects?x=1"');
    expect(page).not.toContain(PASSWORD);
  });

  test('GET /__gate__ serves the page, keeping only a same-origin next', async () => {
    const own = await fetch(`${testApp.url}/__gate__?next=/dashboard`);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('name="next" value="/dashboard"');
    const foreign = await fetch(`${testApp.url}/__gate__?next=${encodeURIComponent('//evil.example/x')}`);
    expect(await foreign.text()).toContain('name="next" value="/"');
  });

  test('the right password by form sets a signed HttpOnly cookie and redirects to next', async () => {
    const res = await fetch(`${testApp.url}/__gate__`, form({ password: PASSWORD, next: '/projects' }));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/projects');
    const line = res.headers.getSetCookie().find((c) => c.startsWith('baton_gate='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Lax/i);
    expect(line).toMatch(/Path=\//);
    expect(line).not.toContain(PASSWORD);
    const list = await http.get('/projects', { cookie: line.split(';')[0] });
    expect(list.status).toBe(200);
  });

  test('a next of another origin is not followed', async () => {
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const res = await fetch(`${testApp.url}/__gate__`, form({ password: PASSWORD, next }));
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/');
    }
  });

  test('a wrong or missing password sets no cookie', async () => {
    const wrong = await http.post('/__gate__', { password: 'not-it' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ detail: 'wrong site password' });
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const missing = await http.post('/__gate__', {});
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/password/);
    const wrongType = await http.post('/__gate__', { password: 12345 });
    expect(wrongType.status).toBe(400);
    const byForm = await fetch(`${testApp.url}/__gate__`, form({ password: 'not-it' }));
    expect(byForm.status).toBe(401);
    expect(await byForm.text()).toContain('wrong site password');
    expect(byForm.headers.getSetCookie()).toEqual([]);
    const notJson = await http.post('/__gate__', 'password', { 'content-type': 'text/plain' });
    expect(notJson.status).toBe(415);
    const brokenJson = await http.post('/__gate__', '{"password":', { 'content-type': 'application/json' });
    expect(brokenJson.status).toBe(400);
    expect(brokenJson.body.detail).toMatch(/not valid/);
  });

  test('a tampered, foreign or expired-looking cookie does not pass', async () => {
    const [name, value] = cookie.split('=');
    const [expiry, mac] = value.split('.');
    const tampered = [
      `${name}=${Number(expiry) + 1000}.${mac}`,
      `${name}=${expiry}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      `${name}=1.${mac}`,
      `${name}=yes`,
      `other=${value}`,
    ];
    for (const c of tampered) expect((await http.get('/projects', { cookie: c })).status).toBe(401);
  });

  test('/mcp is behind the gate: refused without the cookie, served with it', async () => {
    const bare = await http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    expect(bare.status).toBe(401);
    expect(bare.body.code).toBe('SITE_PASSWORD_REQUIRED');
    const client = new Client({ name: 'gate-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', testApp.url), { requestInit: { headers: { cookie } } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('start_session');
    } finally {
      await client.close();
    }
  });

  test('the dashboard WebSocket upgrade is refused with 401 without the cookie and opens with it', async () => {
    expect((await openSocket(testApp.url, {})).status).toBe(401);
    const opened = await openSocket(testApp.url, { cookie });
    expect(opened.status).toBe(101);
    opened.ws!.close();
  });

  test('other methods on /__gate__ answer 405', async () => {
    const res = await http.delete('/__gate__');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });
});

describe('site gate attempts', () => {
  test('a client address past 10 guesses a minute is answered 429 with Retry-After, the right password included', async () => {
    const testApp = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: SECRET });
    try {
      const http = new Http(testApp.url);
      for (let i = 0; i < 10; i++) expect((await http.post('/__gate__', { password: `guess-${i}` })).status).toBe(401);
      const limited = await http.post('/__gate__', { password: PASSWORD });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.body).toEqual({ detail: expect.stringMatching(/too many password attempts/), code: 'RATE_LIMITED' });
      expect(limited.headers.getSetCookie()).toEqual([]);
    } finally {
      await testApp.close();
    }
  });

  test('a cookie issued for another password, or under a SESSION_SECRET not accepted here, does not pass', async () => {
    const first = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: SECRET });
    const otherPassword = await startApp({ SITE_PASSWORD: 'another-gate-pw-77', SESSION_SECRET: SECRET });
    const otherSecret = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: `${SECRET}-rotated` });
    const samePassword = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: SECRET });
    const rotated = await startApp({ SITE_PASSWORD: PASSWORD, SESSION_SECRET: `${SECRET}-rotated`, SERVICE_PREVIOUS_SESSION_SECRETS: SECRET });
    try {
      const cookie = await enter(first.url);
      expect((await new Http(otherPassword.url).get('/projects', { cookie })).status).toBe(401);
      expect((await new Http(otherSecret.url).get('/projects', { cookie })).status).toBe(401);
      // Another instance with the same settings accepts it: nothing is kept per instance.
      expect((await new Http(samePassword.url).get('/projects', { cookie })).status).toBe(200);
      // A secret rotated into SERVICE_PREVIOUS_SESSION_SECRETS keeps the cookies it signed.
      expect((await new Http(rotated.url).get('/projects', { cookie })).status).toBe(200);
    } finally {
      await Promise.all([first.close(), otherPassword.close(), otherSecret.close(), samePassword.close(), rotated.close()]);
    }
  });

  test('without SITE_PASSWORD nothing is gated', async () => {
    const testApp = await startApp({});
    try {
      expect((await new Http(testApp.url).get('/projects')).status).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});

describePostgres('site gate, hosted on Postgres', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SITE_PASSWORD: PASSWORD, SESSION_SECRET: SECRET }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('a valid bearer token does not pass the gate without the cookie; with both the request is served', async () => {
    const tenant = await tenantClient(testApp, 'gated');
    const bare = await tenant.http.get('/projects');
    expect(bare.status).toBe(401);
    expect(bare.body.code).toBe('SITE_PASSWORD_REQUIRED');
    const cookie = await enter(testApp.url);
    const both = await tenant.http.get('/projects', { cookie });
    expect(both.status).toBe(200);
    // The cookie opens the gate only: without a token the route still asks for one.
    const cookieOnly = await new Http(testApp.url).get('/projects', { cookie });
    expect(cookieOnly.status).toBe(401);
    expect(cookieOnly.body.detail).not.toMatch(/__gate__/);
  });
});
