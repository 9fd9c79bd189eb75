import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { escapeHtml } from '../src/common/http/html-page';
import { OAuthServer } from '../src/modules/oauth-server/oauth-server.service';
import { subjectOf } from '../src/modules/oauth-server/oauth-subject.util';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { Http } from './support/http';
import { callTool } from './support/mcp-client';
import { csrfOf, PageBrowser, startOAuthApp } from './support/oauth';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startApp, TestApp } from './support/test-app';

const CALLBACK = 'http://127.0.0.1/callback';
const run = promisify(execFile);

/**
 * An MCP client's OAuth side, as an application built on the SDK keeps it: registration,
 * tokens and the PKCE verifier in memory, and the authorization URL it would open in the
 * person's browser. `verifierOverride` plays a client that lost (or never had) the verifier.
 */
class ClientAuth implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  verifierOverride: string | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';

  constructor(private readonly name = 'Test MCP client') {}

  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifierOverride ?? this.verifier;
  }
  get clientId(): string {
    if (!this.info) throw new Error('not registered');
    return this.info.client_id;
  }
}

/** Connects an SDK client to `url`/mcp with only `auth` to go on; throws what the SDK throws. */
async function connectWith(url: string, auth: ClientAuth): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), { authProvider: auth });
  const client = new Client({ name: 'oauth-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

/** The person's browser through Baton's consent page; returns where Baton finally sends it (the client's callback). */
async function consent(browser: PageBrowser, authorizationUrl: URL, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const start = await browser.get(authorizationUrl.toString());
  expect(start.status).toBe(303);
  expect(start.location).toMatch(/\/oauth\/interaction\/[\w-]+$/);
  const page = await browser.get(start.location!);
  expect(page.status).toBe(200);
  const answer = await browser.postForm(start.location!, { csrf: csrfOf(page.text), decision });
  expect(answer.status).toBe(303);
  const resume = await browser.get(answer.location!);
  expect(resume.status).toBe(303);
  return new URL(resume.location!);
}

/** Runs the whole authorization code flow for `auth` as `person`; returns the access token the client holds. */
async function authorize(testApp: TestApp, auth: ClientAuth, person: SignedInClient): Promise<string> {
  await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
  const callback = await consent(new PageBrowser(testApp.url, person.cookie), auth.authorizationUrl!);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', testApp.url), { authProvider: auth });
  await transport.finishAuth(callback.searchParams.get('code')!);
  return auth.tokens()!.access_token;
}

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list' };

describePostgres('Baton as the OAuth authorization server of its MCP endpoint', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let ada: SignedInClient;
  let bob: SignedInClient;
  const adaEmail = freshEmail('ada');

  beforeAll(async () => {
    db = await TestDatabase.create();
    // Token lookups are remembered here, so a revocation must reach the cache to take effect at once.
    testApp = await startOAuthApp(db, { SERVICE_TOKEN_CACHE_SECONDS: '60' });
    ada = await signIn(testApp, adaEmail);
    bob = await signIn(testApp, freshEmail('bob'));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('/mcp without a token answers 401 {detail} and names its protected resource metadata; the metadata names Baton as issuer', async () => {
    const http = new Http(testApp.url);
    const refused = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/token/);
    expect(refused.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${testApp.url}/.well-known/oauth-protected-resource/mcp"`);
    const wrong = await http.withToken('A'.repeat(43)).post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/, error="invalid_token"$/);
    expect((await http.get('/mcp/sse')).headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);

    const expected = {
      resource: `${testApp.url}/mcp`,
      authorization_servers: [testApp.url],
      scopes_supported: ['mcp'],
      bearer_methods_supported: ['header'],
    };
    expect((await http.get('/.well-known/oauth-protected-resource/mcp')).body).toMatchObject(expected);
    expect((await http.get('/.well-known/oauth-protected-resource')).body).toMatchObject(expected);
    const server = (await http.get('/.well-known/oauth-authorization-server')).body;
    expect(server).toMatchObject({
      issuer: testApp.url,
      authorization_endpoint: `${testApp.url}/oauth/authorize`,
      token_endpoint: `${testApp.url}/oauth/token`,
      registration_endpoint: `${testApp.url}/oauth/register`,
      device_authorization_endpoint: `${testApp.url}/oauth/device`,
      revocation_endpoint: `${testApp.url}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    expect((await http.get('/.well-known/openid-configuration')).body).toEqual(server);
  });

  test('an SDK client with only the URL discovers, registers, is approved by the person in the browser and lists tools in their workspace', async () => {
    const auth = new ClientAuth('Ada’s editor');
    await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
    expect(auth.clientInformation()?.client_id).toBeDefined();
    const url = auth.authorizationUrl!;
    expect(url.origin + url.pathname).toBe(`${testApp.url}/oauth/authorize`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(`${testApp.url}/mcp`);

    const browser = new PageBrowser(testApp.url, ada.cookie);
    const start = await browser.get(url.toString());
    const page = await browser.get(start.location!);
    expect(page.text).toContain('Ada’s editor');
    expect(page.text).toContain('127.0.0.1');
    expect(page.text).toContain(escapeHtml(adaEmail));
    expect(page.text).toContain(escapeHtml((await ada.http.get('/me')).body.workspace.name));
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const answer = await browser.postForm(start.location!, { csrf: csrfOf(page.text), decision: 'approve' });
    const callback = new URL((await browser.get(answer.location!)).location!);
    expect(callback.origin + callback.pathname).toBe(CALLBACK);
    expect(callback.searchParams.get('iss')).toBe(testApp.url);

    const transport = new StreamableHTTPClientTransport(new URL('/mcp', testApp.url), { authProvider: auth });
    await transport.finishAuth(callback.searchParams.get('code')!);
    expect(auth.tokens()).toMatchObject({ token_type: 'Bearer', scope: 'mcp', expires_in: 3600 });
    expect(auth.tokens()!.refresh_token).toBeDefined();

    const { client } = await connectWith(testApp.url, auth);
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain('start_session');
      const project = await callTool(client, 'create_project', { name: 'Made over OAuth' });
      expect(project.isError).toBe(false);
    } finally {
      await client.close();
    }
    // The token is the person's workspace's: the project is there, and not in another workspace.
    expect((await ada.http.get('/projects')).body.map((p: { name: string }) => p.name)).toContain('Made over OAuth');
    expect((await bob.http.get('/projects')).body.map((p: { name: string }) => p.name)).not.toContain('Made over OAuth');
    // The same token reads the REST API of that workspace.
    const rest = await new Http(testApp.url, auth.tokens()!.access_token).get('/projects');
    expect(rest.status).toBe(200);
    expect(rest.body.map((p: { name: string }) => p.name)).toContain('Made over OAuth');
    const rows = await db.query<{ tenant_id: string; audience: string }>(`SELECT tenant_id, audience FROM control.oauth_payloads WHERE model = 'AccessToken'`);
    expect(rows).toEqual([{ tenant_id: ada.tenantId, audience: `${testApp.url}/mcp` }]);
  });

  test('a wrong PKCE verifier is refused at the token endpoint, and no token is issued', async () => {
    const auth = new ClientAuth();
    await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
    const callback = await consent(new PageBrowser(testApp.url, bob.cookie), auth.authorizationUrl!);
    const code = callback.searchParams.get('code')!;
    const before = await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'AccessToken'`);

    auth.verifierOverride = 'x'.repeat(43);
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', testApp.url), { authProvider: auth });
    await expect(transport.finishAuth(code)).rejects.toThrow();
    expect(auth.tokens()).toBeUndefined();
    // What the token endpoint answers, and that the right verifier cannot use the code any more either.
    const raw = await fetch(`${testApp.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: CALLBACK, client_id: auth.clientId, code_verifier: 'y'.repeat(43) }),
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({ error: 'invalid_grant', detail: expect.any(String) });
    expect(await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'AccessToken'`)).toHaveLength(before.length);
  });

  test('a token for another resource is never issued, and one with another audience is refused at /mcp', async () => {
    const auth = new ClientAuth();
    const token = await authorize(testApp, auth, ada);
    // The authorization server refuses to authorize another resource.
    const other = new URL(auth.authorizationUrl!);
    other.searchParams.set('resource', 'https://api.example.test/');
    const refused = await new PageBrowser(testApp.url, ada.cookie).get(other.toString());
    expect(refused.status).toBe(303);
    expect(new URL(refused.location!).searchParams.get('error')).toBe('invalid_target');
    // An authorization request that cannot be answered to the client (no such client) is a page for the person.
    const unknownClient = new URL(auth.authorizationUrl!);
    unknownClient.searchParams.set('client_id', 'nobody');
    const page = await new PageBrowser(testApp.url, ada.cookie).get(unknownClient.toString());
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toContain('client is invalid');
    expect(
      (
        await fetch(`${testApp.url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: auth.tokens()!.refresh_token!, client_id: auth.clientId, resource: 'https://api.example.test/' }),
        })
      ).status,
    ).toBe(400);

    // A token of the same grant minted for another audience (as another resource server's would be) is refused.
    const { provider } = testApp.app.get(OAuthServer);
    const client = (await provider.Client.find(auth.clientId))!;
    const subject = subjectOf(ada.tenantId, ada.accountId);
    const grant = new provider.Grant({ accountId: subject, clientId: auth.clientId });
    grant.addResourceScope('https://api.example.test/', 'mcp');
    const foreign = new provider.AccessToken({ accountId: subject, client, grantId: await grant.save(), scope: 'mcp', gty: 'authorization_code' });
    foreign.setAudience('https://api.example.test/');
    const foreignToken = await foreign.save();
    const http = new Http(testApp.url);
    const answer = await http.withToken(foreignToken).post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toBe('invalid, expired or revoked access token');
    expect((await http.withToken(foreignToken).get('/projects')).status).toBe(401);
    expect((await http.withToken(token).post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(200);
  });

  test('a revoked access token is refused at once although lookups are cached; revoking either token ends every token of the grant', async () => {
    const tokenRequest = (fields: Record<string, string>) =>
      fetch(`${testApp.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    const revoke = (auth: ClientAuth, value: string) =>
      fetch(`${testApp.url}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: value, client_id: auth.clientId }),
      });

    const first = new ClientAuth();
    const http = new Http(testApp.url, await authorize(testApp, first, ada));
    expect((await http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(200);
    expect((await revoke(first, first.tokens()!.access_token)).status).toBe(200);
    const refused = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    const refresh = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.tokens()!.refresh_token!, client_id: first.clientId });
    expect(refresh.status).toBe(400);
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });

    // A refresh turns the refresh token into a new pair (the old one is spent); revoking the new refresh token ends its access token too.
    const second = new ClientAuth();
    const old = new Http(testApp.url, await authorize(testApp, second, ada));
    const refreshed = (await (
      await tokenRequest({ grant_type: 'refresh_token', refresh_token: second.tokens()!.refresh_token!, client_id: second.clientId })
    ).json()) as OAuthTokens;
    expect(refreshed).toMatchObject({ token_type: 'Bearer', scope: 'mcp', expires_in: 3600 });
    expect(refreshed.refresh_token).not.toBe(second.tokens()!.refresh_token);
    const renewed = new Http(testApp.url, refreshed.access_token);
    expect((await renewed.get('/projects')).status).toBe(200);
    expect((await old.get('/projects')).status).toBe(200);
    expect((await revoke(second, refreshed.refresh_token!)).status).toBe(200);
    expect((await renewed.get('/projects')).status).toBe(401);
    expect((await old.get('/projects')).status).toBe(401);
  });

  test('an expired access token is refused', async () => {
    const token = await authorize(testApp, new ClientAuth(), bob);
    await db.query(`UPDATE control.oauth_payloads SET expires_at = now() - interval '1 second' WHERE model = 'AccessToken' AND tenant_id = $1`, [bob.tenantId]);
    const refused = await new Http(testApp.url, token).get('/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('invalid, expired or revoked access token');
  });

  test('not signed in, the consent page sends the browser to sign in and back; a person who denies sends the client access_denied', async () => {
    const auth = new ClientAuth();
    await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
    const anonymous = new PageBrowser(testApp.url);
    const start = await anonymous.get(auth.authorizationUrl!.toString());
    const interaction = new URL(start.location!).pathname;
    const signInFirst = await anonymous.get(interaction);
    expect(signInFirst.status).toBe(303);
    expect(signInFirst.location).toBe(`${testApp.url}/auth/login?next=${encodeURIComponent(interaction)}`);

    const grantsBefore = await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Grant'`);
    const callback = await consent(new PageBrowser(testApp.url, bob.cookie), auth.authorizationUrl!, 'deny');
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('code')).toBeNull();
    expect(await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Grant'`)).toHaveLength(grantsBefore.length);
  });

  test('the consent form is refused without its CSRF token, from another site, or for a request this browser did not start', async () => {
    const auth = new ClientAuth();
    await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
    const browser = new PageBrowser(testApp.url, ada.cookie);
    const start = await browser.get(auth.authorizationUrl!.toString());
    const page = await browser.get(start.location!);
    const csrf = csrfOf(page.text);
    const grantsBefore = await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Grant'`);

    const forged = await browser.postForm(start.location!, { csrf: 'x'.repeat(csrf.length), decision: 'approve' });
    expect(forged.status).toBe(403);
    expect(JSON.parse(forged.text).detail).toMatch(/did not come from Baton/);
    const crossSite = await browser.postForm(start.location!, { csrf, decision: 'approve' }, { origin: 'https://evil.example.test' });
    expect(crossSite.status).toBe(403);
    const missing = await browser.postForm(start.location!, { decision: 'approve' });
    expect(missing.status).toBe(400);
    expect(JSON.parse(missing.text).detail).toMatch(/csrf/);
    // Another browser of the same person holds no interaction cookie for it: the request is not theirs to answer.
    const other = await new PageBrowser(testApp.url, ada.cookie).postForm(start.location!, { csrf, decision: 'approve' });
    expect(other.status).toBe(400);
    expect(other.text).toMatch(/expired or was already answered/);
    expect(await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Grant'`)).toHaveLength(grantsBefore.length);
    // The page itself still works after all that.
    expect((await browser.postForm(start.location!, { csrf, decision: 'approve' })).status).toBe(303);
  });

  test('registration takes public clients and refuses bad metadata with {error, detail}, storing nothing', async () => {
    const register = (body: unknown) => new Http(testApp.url).post('/oauth/register', body);
    const clientsBefore = await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Client'`);
    const insecure = await register({ redirect_uris: ['http://example.test/callback'], client_name: 'Plain HTTP' });
    expect(insecure.status).toBe(400);
    expect(insecure.body).toMatchObject({ error: 'invalid_redirect_uri', detail: expect.stringMatching(/loopback/) });
    const noRedirect = await register({ client_name: 'Nowhere' });
    expect(noRedirect.status).toBe(400);
    expect(noRedirect.body.detail).toMatch(/redirect_uris/);
    const badScope = await register({ redirect_uris: [CALLBACK], scope: 'admin' });
    expect(badScope.status).toBe(400);
    expect(badScope.body.error).toBe('invalid_client_metadata');
    expect(await db.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'Client'`)).toHaveLength(clientsBefore.length);

    const editor = await register({ redirect_uris: ['vscode://baton/callback', 'https://app.example.test/cb'], client_name: 'Editor', token_endpoint_auth_method: 'none' });
    expect(editor.status).toBe(201);
    expect(editor.body).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] });
    expect(editor.body.client_secret).toBeUndefined();
    expect(editor.body.registration_access_token).toBeUndefined();
    // A client that names no method gets RFC 7591's default: a secret, shown once here and stored sealed.
    const web = await register({ redirect_uris: ['https://app.example.test/cb'] });
    expect(web.status).toBe(201);
    expect(web.body).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic', client_secret: expect.any(String) });
    expect(JSON.stringify(await db.query('SELECT * FROM control.oauth_payloads'))).not.toContain(web.body.client_secret);
  });

  test('an address may register only so many clients, and start only so many device sign-ins, an hour', async () => {
    const limited = await startOAuthApp(db, { SERVICE_OAUTH_REGISTRATION_LIMIT: '2' });
    try {
      const register = () => new Http(limited.url).post('/oauth/register', { redirect_uris: [CALLBACK] });
      expect((await register()).status).toBe(201);
      expect((await register()).status).toBe(201);
      const refused = await register();
      expect(refused.status).toBe(429);
      expect(refused.body.detail).toMatch(/at most 2 an hour/);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // Device sign-ins started are counted apart, on the same terms.
      const connect = () => new Http(limited.url).get('/auth/tunnel-connect');
      expect((await connect()).status).toBe(200);
      expect((await connect()).status).toBe(200);
      const tooMany = await connect();
      expect(tooMany.status).toBe(429);
      expect(tooMany.body.detail).toMatch(/too many device sign-ins started/);
    } finally {
      await limited.close();
    }
  });

  test('a person no longer in the workspace gets no more tokens for it, and the access token they hold stops working', async () => {
    const carol = await signIn(testApp, freshEmail('carol'));
    const auth = new ClientAuth();
    await authorize(testApp, auth, carol);
    const bearer = new Http(testApp.url, auth.tokens()!.access_token);
    expect((await bearer.get('/projects')).status).toBe(200);
    await db.query(`UPDATE control.memberships SET status = 'invited' WHERE account_id = $1`, [carol.accountId]);
    testApp.app.get(TenantResolver).forgetTenant(carol.tenantId); // as SERVICE_TOKEN_CACHE_SECONDS passing would
    expect((await bearer.get('/projects')).status).toBe(401);
    const refresh = await new Http(testApp.url).send(
      'POST',
      '/oauth/token',
      new URLSearchParams({ grant_type: 'refresh_token', refresh_token: auth.tokens()!.refresh_token!, client_id: auth.clientId }).toString(),
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(refresh.status).toBe(400);
    expect(refresh.body.error).toBe('invalid_grant');
  });

  test('a dump of the control plane holds no token, code, client id or session of the authorization server in clear', async () => {
    const auth = new ClientAuth();
    await expect(connectWith(testApp.url, auth)).rejects.toThrow(UnauthorizedError);
    const browser = new PageBrowser(testApp.url, ada.cookie);
    const callback = await consent(browser, auth.authorizationUrl!);
    const code = callback.searchParams.get('code')!;
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', testApp.url), { authProvider: auth });
    await transport.finishAuth(code);
    const interaction = new URL((await new PageBrowser(testApp.url).get(auth.authorizationUrl!.toString())).location!).pathname.split('/').pop()!;
    const session = browser.cookie('baton_oauth_session');
    const secrets = { code, access: auth.tokens()!.access_token, refresh: auth.tokens()!.refresh_token!, client: auth.clientId, interaction, session: session! };
    for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThan(8);

    const { stdout } = await run('pg_dump', ['--data-only', '--schema=control', db.url]);
    expect(stdout).toContain('oauth_payloads');
    for (const [name, value] of Object.entries(secrets)) expect({ name, found: stdout.includes(value) }).toEqual({ name, found: false });
    // The signing keys are sealed too: not even the public modulus the JWKS endpoint shows is readable.
    const jwks = (await new Http(testApp.url).get('/oauth/jwks')).body as { keys: { n: string }[] };
    expect(jwks.keys).toHaveLength(1);
    expect(stdout).not.toContain(jwks.keys[0].n.slice(0, 40));
  });
});

describe('self-hosted Baton has no authorization server', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('its OAuth routes and discovery documents answer 404 {detail}, and /mcp needs no token', async () => {
    const http = new Http(testApp.url);
    const code = 'x'.repeat(43);
    const pages = [
      '/activate',
      '/oauth/device-callback',
      '/oauth/interaction/abcdefghij',
      '/auth/tunnel-connect',
      `/auth/tunnel-poll?device_code=${code}`,
      '/auth/hooks-connect',
      `/auth/hooks-status?device_code=${code}`,
    ];
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known/openid-configuration',
      '/oauth/authorize',
      ...pages,
    ]) {
      const answer = await http.get(path);
      expect({ path, status: answer.status, detail: answer.body?.detail }).toEqual({ path, status: 404, detail: expect.stringMatching(/hosted Baton only/) });
    }
    for (const path of ['/oauth/register', '/oauth/token', '/oauth/device']) expect((await http.post(path, {})).status).toBe(404);
    expect((await http.post('/activate', { csrf: 'x', user_code: 'BCDF-GHJK' })).status).toBe(404);
    // Input is checked first, as on every route.
    expect((await http.post('/activate', {})).status).toBe(400);
    const listed = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('www-authenticate')).toBeNull();
  });
});
