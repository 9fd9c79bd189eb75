import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { escapeHtml } from '../src/common/http/html-page';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { Http, HttpResult } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { csrfOf, PageBrowser, startOAuthApp } from './support/oauth';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { TestApp } from './support/test-app';
import { sleep } from './support/wait';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const run = promisify(execFile);

interface DeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** The device's side: what a command-line tool sends to start and to poll. */
class Device {
  constructor(
    private readonly http: Http,
    readonly clientId: string,
  ) {}

  async start(scope = 'mcp'): Promise<DeviceAuthorization> {
    const answer = await this.http.send('POST', '/oauth/device', new URLSearchParams({ client_id: this.clientId, scope }).toString(), FORM);
    expect(answer.status).toBe(200);
    return answer.body as DeviceAuthorization;
  }

  poll(deviceCode: string): Promise<HttpResult> {
    return this.http.send('POST', '/oauth/token', new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: this.clientId }).toString(), FORM);
  }
}

/** Waits the poll interval (1 s in this suite) and a little, as a well-behaved device does. */
const waitInterval = () => sleep(1100);

describePostgres('device flow (RFC 8628): a device polls, the person approves or denies at /activate', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let ada: SignedInClient;
  let bob: SignedInClient;
  let device: Device;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startOAuthApp(db, { SERVICE_DEVICE_POLL_INTERVAL_SECONDS: '1' });
    ada = await signIn(testApp, freshEmail('ada'));
    bob = await signIn(testApp, freshEmail('bob'));
    const http = new Http(testApp.url);
    const registered = await http.post('/oauth/register', {
      client_name: 'Baton CLI',
      grant_types: [DEVICE_GRANT, 'refresh_token'],
      response_types: [],
      token_endpoint_auth_method: 'none',
    });
    expect(registered.status).toBe(201);
    device = new Device(http, registered.body.client_id);
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('end to end: pending, slow_down when polled too fast, approval at /activate, then tokens that work at /mcp for that workspace', async () => {
    const started = await device.start();
    expect(started).toEqual({
      device_code: expect.any(String),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${testApp.url}/activate`,
      verification_uri_complete: `${testApp.url}/activate?user_code=${started.user_code}`,
      expires_in: 600,
      interval: 1,
    });
    // The interval counts from the start, and from every poll answered.
    expect((await device.poll(started.device_code)).body).toMatchObject({ error: 'slow_down', detail: expect.stringMatching(/once every 1 seconds/) });
    await waitInterval();
    const pending = await device.poll(started.device_code);
    expect(pending.status).toBe(400);
    expect(pending.body).toMatchObject({ error: 'authorization_pending', detail: expect.any(String) });
    expect((await device.poll(started.device_code)).body.error).toBe('slow_down');

    // Not signed in, the page sends the person to sign in and back to the same code.
    const anonymous = await new PageBrowser(testApp.url).get(started.verification_uri_complete);
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe(`${testApp.url}/auth/login?next=${encodeURIComponent(`/activate?user_code=${started.user_code}`)}`);

    const browser = new PageBrowser(testApp.url, ada.cookie);
    const page = await browser.get(started.verification_uri_complete);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Baton CLI');
    expect(page.text).toContain(started.user_code);
    expect(page.text).toContain(escapeHtml((await ada.http.get('/me')).body.workspace.name));
    const approved = await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: started.user_code, decision: 'approve' });
    expect(approved.status).toBe(303);
    expect(approved.location).toBe(`${testApp.url}/oauth/device-callback?outcome=approved`);
    expect((await browser.get(approved.location!)).text).toContain('Device connected');

    await waitInterval();
    const tokens = await device.poll(started.device_code);
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), token_type: 'Bearer', scope: 'mcp', expires_in: 3600 });
    const client = await connectMcp(testApp.url, tokens.body.access_token);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('start_session');
      expect((await callTool(client, 'create_project', { name: 'From a device' })).isError).toBe(false);
    } finally {
      await client.close();
    }
    expect((await ada.http.get('/projects')).body.map((p: { name: string }) => p.name)).toContain('From a device');
    expect((await bob.http.get('/projects')).body.map((p: { name: string }) => p.name)).not.toContain('From a device');
    // The code is spent, and presenting it again (a stolen copy replayed) revokes what it gave.
    expect((await device.poll(started.device_code)).body.error).toBe('invalid_grant');
    expect((await new Http(testApp.url, tokens.body.access_token).get('/projects')).status).toBe(401);
  });

  test('the code can be typed in: /activate shows an entry form, refuses a wrong code and takes the right one in any case', async () => {
    const started = await device.start();
    const browser = new PageBrowser(testApp.url, bob.cookie);
    const form = await browser.get('/activate');
    expect(form.status).toBe(200);
    expect(form.text).toContain('name="user_code"');
    const csrf = csrfOf(form.text);
    const wrong = await browser.postForm('/activate', { csrf, user_code: 'BBBB-BBBB' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('not valid');
    const typed = await browser.postForm('/activate', { csrf, user_code: started.user_code.toLowerCase().replace('-', ' ') });
    expect(typed.status).toBe(200);
    expect(typed.text).toContain(started.user_code);
    expect(typed.text).toContain('name="decision" value="approve"');
    // Looking at it decided nothing.
    await waitInterval();
    expect((await device.poll(started.device_code)).body.error).toBe('authorization_pending');
  });

  test('denied at /activate, the next poll answers access_denied and no token is ever issued', async () => {
    const tokensBefore = await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model IN ('AccessToken', 'RefreshToken')`);
    const started = await device.start();
    const browser = new PageBrowser(testApp.url, ada.cookie);
    const page = await browser.get(started.verification_uri_complete);
    const denied = await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: started.user_code, decision: 'deny' });
    expect(denied.location).toBe(`${testApp.url}/oauth/device-callback?outcome=denied`);
    expect((await browser.get(denied.location!)).text).toContain('Access denied');
    await waitInterval();
    const refused = await device.poll(started.device_code);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'access_denied', detail: expect.any(String) });
    // A decided code cannot be decided again.
    const again = await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: started.user_code, decision: 'approve' });
    expect(again.status).toBe(400);
    await waitInterval();
    expect((await device.poll(started.device_code)).status).toBe(400);
    expect(await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model IN ('AccessToken', 'RefreshToken')`)).toHaveLength(tokensBefore.length);
  });

  test('the /activate form needs its CSRF token and Baton’s origin', async () => {
    const started = await device.start();
    const browser = new PageBrowser(testApp.url, ada.cookie);
    const csrf = csrfOf((await browser.get(started.verification_uri_complete)).text);
    expect((await browser.postForm('/activate', { csrf: 'x'.repeat(csrf.length), user_code: started.user_code, decision: 'approve' })).status).toBe(403);
    expect((await browser.postForm('/activate', { csrf, user_code: started.user_code, decision: 'approve' }, { origin: 'https://evil.example.test' })).status).toBe(403);
    // Another person's page token is not this person's.
    const bobsCsrf = csrfOf((await new PageBrowser(testApp.url, bob.cookie).get('/activate')).text);
    expect((await browser.postForm('/activate', { csrf: bobsCsrf, user_code: started.user_code, decision: 'approve' })).status).toBe(403);
    await waitInterval();
    expect((await device.poll(started.device_code)).body.error).toBe('authorization_pending');
  });

  test('an unknown client, or one registered without the device grant, cannot start a device authorization', async () => {
    const http = new Http(testApp.url);
    const unknown = await http.send('POST', '/oauth/device', 'client_id=nobody&scope=mcp', FORM);
    expect(unknown.status).toBe(401);
    expect(unknown.body).toMatchObject({ error: 'invalid_client', detail: expect.any(String) });
    const web = await http.post('/oauth/register', { redirect_uris: ['http://127.0.0.1/cb'], token_endpoint_auth_method: 'none' });
    const notAllowed = await http.send('POST', '/oauth/device', new URLSearchParams({ client_id: web.body.client_id }).toString(), FORM);
    expect(notAllowed.status).toBe(400);
    expect(notAllowed.body).toMatchObject({ error: 'invalid_request', detail: `${DEVICE_GRANT} is not allowed for this client` });
  });

  test('a code that expired answers expired_token, and /activate no longer takes it', async () => {
    const shortLived = await startOAuthApp(db, { SERVICE_DEVICE_POLL_INTERVAL_SECONDS: '1', SERVICE_DEVICE_CODE_SECONDS: '1' });
    try {
      const late = new Device(new Http(shortLived.url), device.clientId);
      const started = await late.start();
      expect(started.expires_in).toBe(1);
      await sleep(1500);
      const expired = await late.poll(started.device_code);
      expect(expired.status).toBe(400);
      expect(expired.body).toMatchObject({ error: 'expired_token', detail: expect.any(String) });
      const page = await new PageBrowser(shortLived.url, ada.cookie).get(started.verification_uri_complete);
      expect(page.status).toBe(200);
      expect(page.text).toContain('not valid, or it has expired');
      expect(page.text).not.toContain('name="decision"');
    } finally {
      await shortLived.close();
    }
  });

  test('device codes and user codes are stored only as hashes', async () => {
    const started = await device.start();
    const { stdout } = await run('pg_dump', ['--data-only', '--schema=control', db.url]);
    expect(stdout).toContain('oauth_payloads');
    expect(stdout).not.toContain(started.device_code);
    expect(stdout).not.toContain(started.user_code.replace('-', ''));
    expect(stdout).not.toContain(started.user_code);
  });

  test('the tunnel connector signs in by the device flow and gets an API token named tunnel, shown once', async () => {
    const http = new Http(testApp.url);
    const started = (await http.get('/auth/tunnel-connect')).body as DeviceAuthorization;
    expect(started).toEqual({
      device_code: expect.any(String),
      user_code: expect.stringMatching(/^[A-Z]{4}-[A-Z]{4}$/),
      verification_uri: `${testApp.url}/activate`,
      verification_uri_complete: `${testApp.url}/activate?user_code=${started.user_code}`,
      expires_in: 600,
      interval: 1,
    });
    const poll = () => http.get(`/auth/tunnel-poll?device_code=${started.device_code}`);
    expect((await poll()).body).toMatchObject({ code: 'SLOW_DOWN', detail: expect.any(String) });
    await waitInterval();
    const pending = await poll();
    expect(pending.status).toBe(400);
    expect(pending.body.code).toBe('AUTHORIZATION_PENDING');
    // Its code is no OAuth client's: /oauth/token does not redeem it, and /oauth/device does not start one.
    const viaToken = await http.send(
      'POST',
      '/oauth/token',
      new URLSearchParams({ grant_type: DEVICE_GRANT, device_code: started.device_code, client_id: 'baton-tunnel' }).toString(),
      FORM,
    );
    expect(viaToken.status).toBe(400);
    expect((await http.send('POST', '/oauth/device', 'client_id=baton-tunnel', FORM)).status).toBe(400);

    const browser = new PageBrowser(testApp.url, ada.cookie);
    const page = await browser.get(started.verification_uri_complete);
    expect(page.text).toContain('Baton tunnel connector');
    const grants = () => db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Grant'`);
    const grantsBefore = (await grants()).length;
    await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: started.user_code, decision: 'approve' });
    await waitInterval();
    const done = await poll();
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ token: expect.stringMatching(/^sk_service_/), tenant_id: ada.tenantId, name: 'tunnel' });
    const made = await new Http(testApp.url, done.body.token).post('/projects', { name: 'Through the tunnel token' });
    expect(made.status).toBe(201);
    expect((await ada.http.get('/projects')).body.map((p: { name: string }) => p.name)).toContain('Through the tunnel token');
    const [row] = await db.query<{ name: string; tenant_id: string; token_hash: string }>(
      'SELECT name, tenant_id, token_hash, created_by FROM control.api_tokens WHERE token_prefix = $1',
      [done.body.token.slice(0, 15)],
    );
    expect(row).toMatchObject({ name: 'tunnel', tenant_id: ada.tenantId, created_by: ada.accountId }); // ends when the person leaves
    expect(row.token_hash).not.toContain(done.body.token);
    // Shown once: the code is gone, with the grant the approval made.
    expect((await poll()).body.code).toBe('INVALID_GRANT');
    expect(await grants()).toHaveLength(grantsBefore);
    const bad = await http.get('/auth/tunnel-poll?device_code=x');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/device_code/);
  });

  test('the hooks connector: /auth/hooks-status answers {registered: false} until approved, then its token named hooks; a denied one answers 403', async () => {
    const http = new Http(testApp.url);
    const started = (await http.get('/auth/hooks-connect')).body as DeviceAuthorization;
    const status = () => http.get(`/auth/hooks-status?device_code=${started.device_code}`);
    await waitInterval();
    expect((await status()).body).toEqual({ registered: false, token: null, tenant_id: null });
    const browser = new PageBrowser(testApp.url, bob.cookie);
    const page = await browser.get(started.verification_uri_complete);
    expect(page.text).toContain('Baton assistant hooks');
    await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: started.user_code, decision: 'approve' });
    const registered = await status();
    expect(registered.body).toEqual({ registered: true, token: expect.stringMatching(/^sk_service_/), tenant_id: bob.tenantId });
    expect((await db.query('SELECT name FROM control.api_tokens WHERE token_prefix = $1', [registered.body.token.slice(0, 15)]))[0]).toEqual({ name: 'hooks' });

    const refused = (await http.get('/auth/hooks-connect')).body as DeviceAuthorization;
    const again = await browser.get(refused.verification_uri_complete);
    await browser.postForm('/activate', { csrf: csrfOf(again.text), user_code: refused.user_code, decision: 'deny' });
    const denied = await http.get(`/auth/hooks-status?device_code=${refused.device_code}`);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'ACCESS_DENIED', detail: expect.stringMatching(/denied/) });
  });

  test('/auth/install shows a signed-in person a short-lived install token, which /auth/hooks-status redeems once for a hooks token', async () => {
    const anonymous = await new Http(testApp.url).get('/auth/install', { accept: 'text/html' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/auth/login?next=${encodeURIComponent('/auth/install')}`);

    const page = await new PageBrowser(testApp.url, ada.cookie).get('/auth/install');
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const installToken = new RegExp(`${testApp.url}/auth/hooks-status\\?device_code=([A-Za-z0-9_-]+)`).exec(page.text)?.[1];
    expect(installToken).toBeDefined();
    expect(page.text).toContain('within 10 minutes');

    const http = new Http(testApp.url);
    const redeemed = await http.get(`/auth/hooks-status?device_code=${installToken}`);
    expect(redeemed.body).toEqual({ registered: true, token: expect.stringMatching(/^sk_service_/), tenant_id: ada.tenantId });
    const [row] = await db.query('SELECT name, created_by FROM control.api_tokens WHERE token_prefix = $1', [redeemed.body.token.slice(0, 15)]);
    expect(row).toEqual({ name: 'hooks', created_by: ada.accountId });
    expect((await new Http(testApp.url, redeemed.body.token).get('/projects')).status).toBe(200);
    // Once only: the install token is spent.
    expect((await http.get(`/auth/hooks-status?device_code=${installToken}`)).status).toBe(400);
  });
});
