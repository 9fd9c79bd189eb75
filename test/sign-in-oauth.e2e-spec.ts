import { sealerFor } from '../src/common/sealer';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { signIn } from './support/accounts';
import { Browser, Visit } from './support/browser';
import { Http } from './support/http';
import { CodehostApi, OidcIdp } from './support/oidc-idp';
import { TestDatabase } from './support/pg-database';
import { freePort } from './support/processes';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';

/**
 * Hosted sign-in through real OAuth providers on loopback (spec §5 flows 1 and 2): two OpenID
 * providers (idpa, idpc) and a code host whose OAuth server is a third oidc-provider with a
 * stand-in for its REST API. A Browser follows the redirects one by one, so each attack can be
 * made at the step it targets.
 */
describePostgres('sign-in through OAuth providers', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let base: string;
  let idpa: OidcIdp;
  let idpc: OidcIdp;
  let codehost: OidcIdp;
  let codehostApi: CodehostApi;

  beforeAll(async () => {
    db = await TestDatabase.create();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    idpa = await OidcIdp.start({ redirectUris: [`${base}/auth/callback`, `${base}/auth/idpa/callback`] });
    idpc = await OidcIdp.start({ redirectUris: [`${base}/auth/idpc/callback`] });
    codehost = await OidcIdp.start({
      redirectUris: [`${base}/auth/codehost/callback`, `${base}/auth/codehost/repo-callback`],
      extraScopes: ['read:user', 'user:email', 'repo'],
      routes: { authorization: '/login/oauth/authorize', token: '/login/oauth/access_token' },
    });
    codehostApi = await CodehostApi.start(codehost);
    testApp = await startApp(
      hostedEnv(db.url, {
        SERVICE_PORT: String(port),
        APP_URL: base,
        IDPA_CLIENT_ID: idpa.clientId,
        IDPA_CLIENT_SECRET: idpa.clientSecret,
        IDPA_ISSUER_URL: idpa.issuer,
        IDPC_CLIENT_ID: idpc.clientId,
        IDPC_CLIENT_SECRET: idpc.clientSecret,
        IDPC_ISSUER_URL: idpc.issuer,
        CODEHOST_CLIENT_ID: codehost.clientId,
        CODEHOST_CLIENT_SECRET: codehost.clientSecret,
        CODEHOST_OAUTH_URL: `${codehost.issuer}/login/oauth`,
        CODEHOST_API_URL: codehostApi.url,
        SERVICE_AFTER_LOGIN_URL: '/dashboard',
      }),
    );
  });
  afterAll(async () => {
    await testApp?.close();
    await Promise.all([idpa?.close(), idpc?.close(), codehost?.close(), codehostApi?.close()]);
    await db?.drop();
  });

  let people = 0;
  /** A new person at `idp`, who the provider signs in next. */
  function person(idp: OidcIdp, fields: { email_verified?: boolean; email?: string | null } = {}) {
    people += 1;
    const sub = `person-${people}-${Math.random().toString(36).slice(2, 8)}`;
    const user = idp.addUser({ sub, email: `${sub}@example.test`, name: `Person ${people}`, login: `login-${sub}`, ...fields });
    idp.decide({ signIn: sub });
    return user;
  }

  /** Follows a flow from `path` until Baton sends the browser somewhere outside /auth (the dashboard, `next`), or a page. */
  function run(browser: Browser, path: string): Promise<Visit[]> {
    return browser.follow(base + path, (next) => next.origin === base && !next.pathname.startsWith('/auth/'));
  }

  /** Follows a flow up to the provider's redirect back to Baton, which is not made: the test makes it, as it likes. */
  async function untilCallback(browser: Browser, path: string): Promise<URL> {
    const visits = await browser.follow(base + path, (next) => next.origin === base && /callback$/.test(next.pathname));
    return new URL(visits.at(-1)!.location!);
  }

  const accountsOf = (email: string) => db.query<{ id: string }>('SELECT id FROM control.accounts WHERE email = $1', [email.toLowerCase()]);
  const sessionCookie = (visit: Visit) => visit.setCookies.find((c) => c.name === 'baton_session');

  /** What every refused flow leaves: a redirect to the sign-in page naming the reason, no session, no account, the state cookie cleared. */
  async function expectRefused(visit: Visit, reason: string, email: string | null) {
    expect(visit.status).toBe(303);
    expect(new URL(visit.location!).pathname).toBe('/auth/login');
    expect(new URL(visit.location!).searchParams.get('error')).toBe(reason);
    expect(sessionCookie(visit)).toBeUndefined();
    expect(visit.setCookies.find((c) => c.name.startsWith('baton_oauth_'))?.expires).toBeLessThanOrEqual(Date.now());
    if (email) expect(await accountsOf(email)).toEqual([]);
  }

  describe('flow 1: sign-in', () => {
    test('idpa: the account and its workspace are made, an HttpOnly, SameSite, Path=/ cookie is set, and GET /me answers the account', async () => {
      const user = person(idpa);
      const browser = new Browser();
      const visits = await run(browser, '/auth/idpa/login?next=/projects%3Fview%3Dall');

      const start = visits[0];
      expect(start.status).toBe(302);
      const authorize = new URL(start.location!);
      expect(authorize.origin).toBe(idpa.issuer);
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
        response_type: 'code',
        client_id: idpa.clientId,
        redirect_uri: `${base}/auth/callback`,
        scope: 'openid email profile',
        code_challenge_method: 'S256',
      });
      expect(authorize.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
      expect(authorize.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
      const stateCookie = start.setCookies.find((c) => c.name === 'baton_oauth_idpa')!;
      expect(stateCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/auth' });
      // Sealed: neither the state nor the verifier can be read from it.
      expect(decodeURIComponent(stateCookie.value)).not.toContain(authorize.searchParams.get('state'));

      const callback = visits.at(-1)!;
      expect(new URL(callback.url).pathname).toBe('/auth/callback');
      expect(callback.status).toBe(303);
      expect(callback.location).toBe(`${base}/projects?view=all`);
      expect(sessionCookie(callback)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(callback.setCookies.find((c) => c.name === 'baton_oauth_idpa')?.expires).toBeLessThanOrEqual(Date.now());

      const [account] = await accountsOf(user.email!);
      expect(await db.query('SELECT provider, subject FROM control.account_identities WHERE account_id = $1', [account.id])).toEqual([{ provider: 'idpa', subject: user.sub }]);
      const [membership] = await db.query<{ tenant_id: string; role: string }>('SELECT tenant_id, role FROM control.memberships WHERE account_id = $1', [account.id]);
      expect(membership.role).toBe('owner');
      expect(await db.query('SELECT status FROM control.tenants WHERE id = $1 AND schema_name IS NOT NULL', [membership.tenant_id])).toEqual([{ status: 'active' }]);

      const cookie = `baton_session=${sessionCookie(callback)!.value}`;
      const me = await new Http(base).get('/me', { cookie });
      expect(me.body).toMatchObject({ account: { id: account.id, email: user.email, name: user.name }, workspace: { id: membership.tenant_id, role: 'owner' } });
    });

    test('a second sign-in through the same provider finds the same account and workspace', async () => {
      const user = person(idpa);
      await run(new Browser(), '/auth/idpa/login');
      const [first] = await accountsOf(user.email!);
      const again = await run(new Browser(), '/auth/idpa/login');
      expect(again.at(-1)).toMatchObject({ status: 303, location: `${base}/dashboard` });
      expect(sessionCookie(again.at(-1)!)).toBeDefined();
      expect(await accountsOf(user.email!)).toEqual([first]);
      expect(await db.query('SELECT count(*)::int AS n FROM control.memberships WHERE account_id = $1', [first.id])).toEqual([{ n: 1 }]);
      expect(await db.query('SELECT count(*)::int AS n FROM control.web_sessions WHERE account_id = $1', [first.id])).toEqual([{ n: 2 }]);
    });

    test('idpa also finishes on /auth/idpa/callback, exchanging the code with the address it arrived on', async () => {
      const user = person(idpa);
      const browser = new Browser();
      const callback = await untilCallback(browser, '/auth/idpa/login');
      expect(callback.pathname).toBe('/auth/callback');
      // The provider would not have sent the browser there; the exchange names the address used and is refused.
      const moved = await browser.visit(`${base}/auth/idpa/callback${callback.search}`);
      await expectRefused(moved, 'exchange', user.email);
    });

    test('idpc: sign-in through the second OpenID provider', async () => {
      const user = person(idpc);
      const visits = await run(new Browser(), '/auth/idpc/login');
      expect(new URL(visits[0].location!).origin).toBe(idpc.issuer);
      expect(new URL(visits.at(-1)!.url).pathname).toBe('/auth/idpc/callback');
      expect(visits.at(-1)).toMatchObject({ status: 303, location: `${base}/dashboard` });
      const [account] = await accountsOf(user.email!);
      expect(await db.query('SELECT provider, subject FROM control.account_identities WHERE account_id = $1', [account.id])).toEqual([{ provider: 'idpc', subject: user.sub }]);
    });

    test('codehost: sign-in reads the account and its verified primary address, asks only for identity scopes, and connects no repository', async () => {
      const user = person(codehost);
      const before = codehostApi.requests.length;
      const visits = await run(new Browser(), '/auth/codehost/login');
      const authorize = new URL(visits[0].location!);
      expect(authorize.pathname).toBe('/login/oauth/authorize');
      expect(authorize.searchParams.get('scope')).toBe('read:user user:email');
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(visits.at(-1)).toMatchObject({ status: 303, location: `${base}/dashboard` });
      expect(codehostApi.requests.slice(before).map((r) => [r.path, Boolean(r.token)])).toEqual([
        ['/user', true],
        ['/user/emails', true],
      ]);
      const [account] = await accountsOf(user.email!);
      const [identity] = await db.query<{ provider: string; subject: string }>('SELECT provider, subject FROM control.account_identities WHERE account_id = $1', [account.id]);
      expect(identity).toEqual({ provider: 'codehost', subject: expect.stringMatching(/^\d+$/) });
      expect(await db.query('SELECT * FROM control.codehost_connections WHERE account_id = $1', [account.id])).toEqual([]);
    });

    test.each([
      ['idpa', 'email_verified false', () => idpa, { email_verified: false }],
      ['idpa', 'no address at all', () => idpa, { email: null }],
      ['codehost', 'an unverified primary address', () => codehost, { email_verified: false }],
    ])('%s with %s: the e-mail-required page, no account, no session', async (provider, _case, idp, fields) => {
      const user = person(idp(), fields);
      const visits = await run(new Browser(), `/auth/${provider}/login`);
      const callback = visits.at(-2)!;
      expect(callback.location).toBe(`${base}/auth/email-required`);
      expect(sessionCookie(callback)).toBeUndefined();
      const page = visits.at(-1)!;
      expect(page.status).toBe(200);
      expect(page.text).toContain('did not give Baton an e-mail address it has verified');
      expect(page.text).toContain('action="/auth/magic"');
      expect(await db.query('SELECT 1 FROM control.account_identities WHERE subject = $1', [user.sub])).toEqual([]);
      if (user.email) expect(await accountsOf(user.email)).toEqual([]);
    });
  });

  describe('flow 1: what an attacker tries ends with no session and no account', () => {
    test('a tampered state: refused at the callback', async () => {
      const user = person(idpa);
      const browser = new Browser();
      const callback = await untilCallback(browser, '/auth/idpa/login');
      callback.searchParams.set('state', `${callback.searchParams.get('state')!.slice(0, -2)}xx`);
      await expectRefused(await browser.visit(callback.toString()), 'state', user.email);
    });

    test('a tampered or missing state cookie: refused at the callback', async () => {
      const user = person(idpa);
      const tampered = new Browser();
      const callback = await untilCallback(tampered, '/auth/idpa/login');
      const cookie = tampered.cookies(base).get('baton_oauth_idpa')!;
      tampered.setCookie(base, { ...cookie, value: cookie.value.slice(0, -4) + (cookie.value.endsWith('AAAA') ? 'BBBB' : 'AAAA') });
      await expectRefused(await tampered.visit(callback.toString()), 'state', user.email);
      // Another browser that never started the flow (a link sent to a victim, login CSRF) is refused the same way.
      await expectRefused(await new Browser().visit(callback.toString()), 'state', user.email);
    });

    test("a code obtained for another browser's flow (a wrong PKCE verifier): the provider refuses the exchange", async () => {
      const user = person(idpa);
      const victim = new Browser();
      const victimCallback = await untilCallback(victim, '/auth/idpa/login');
      const attacker = new Browser();
      const attackerCallback = await untilCallback(attacker, '/auth/idpa/login');
      // The victim's own state and cookie, with the attacker's code: the victim's verifier does not match that code's challenge.
      victimCallback.searchParams.set('code', attackerCallback.searchParams.get('code')!);
      await expectRefused(await victim.visit(victimCallback.toString()), 'exchange', user.email);
    });

    test('a redirect URI the provider does not know: the provider refuses, no code reaches anyone', async () => {
      person(idpa);
      const browser = new Browser();
      const start = await browser.visit(`${base}/auth/idpa/login`);
      const authorize = new URL(start.location!);
      authorize.searchParams.set('redirect_uri', 'http://attacker.example/steal');
      const visits = await browser.follow(authorize.toString());
      expect(visits.at(-1)!.status).toBe(400);
      expect(visits.at(-1)!.text).toMatch(/redirect_uri/);
      expect(visits.some((v) => v.location?.startsWith('http://attacker.example'))).toBe(false);
    });

    test.each(['https://attacker.example/', '//attacker.example/x', '/\\attacker.example', 'javascript:alert(1)'])(
      'an open-redirect next (%s): 400 before the provider is involved',
      async (next) => {
        const interactions = idpa.interactions;
        const browser = new Browser();
        const start = await browser.visit(`${base}/auth/idpa/login?next=${encodeURIComponent(next)}`);
        expect(start.status).toBe(400);
        expect(JSON.parse(start.text)).toMatchObject({ detail: 'next must be a path on this site, starting with a single "/"', code: 'UNSAFE_NEXT' });
        expect(start.location).toBeUndefined();
        expect(start.setCookies).toEqual([]);
        expect(idpa.interactions).toBe(interactions);
      },
    );

    test('a replayed callback: refused in the same browser (state used) and with a copy of its cookie (code used)', async () => {
      const user = person(idpa);
      const browser = new Browser();
      const callback = await untilCallback(browser, '/auth/idpa/login');
      const stolenCookie = browser.cookies(base).get('baton_oauth_idpa')!;
      const first = await browser.visit(callback.toString());
      expect(sessionCookie(first)).toBeDefined();
      const [account] = await accountsOf(user.email!);

      await expectRefused(await browser.visit(callback.toString()), 'state', null);
      const replay = new Browser();
      replay.setCookie(base, stolenCookie);
      await expectRefused(await replay.visit(callback.toString()), 'exchange', null);
      expect(await db.query('SELECT count(*)::int AS n FROM control.web_sessions WHERE account_id = $1', [account.id])).toEqual([{ n: 1 }]);
    });

    test('the person refuses at the provider (error=access_denied), or the provider fails: back to the sign-in page, which says so', async () => {
      const user = person(idpa);
      idpa.decide({ deny: true });
      const browser = new Browser();
      const visits = await run(browser, '/auth/idpa/login');
      const callback = visits.at(-2)!;
      expect(new URL(callback.url).searchParams.get('error')).toBe('access_denied');
      await expectRefused(callback, 'denied', user.email);
      const page = visits.at(-1)!;
      expect(page.status).toBe(200);
      expect(page.text).toContain('was cancelled, or 127.0.0.1:');

      const broken = await new Browser().visit(`${base}/auth/idpc/callback?error=server_error&state=x`);
      await expectRefused(broken, 'provider_error', null);
    });

    test('a callback with neither code nor error starts nothing', async () => {
      const visit = await new Browser().visit(`${base}/auth/codehost/callback?state=abc`);
      await expectRefused(visit, 'state', null);
    });

    test('no log line carries a code, a state or a token', async () => {
      const user = person(codehost);
      const browser = new Browser();
      const callback = await untilCallback(browser, '/auth/codehost/login');
      await browser.visit(callback.toString());
      await browser.visit(callback.toString()); // refused: logged
      const secrets = [callback.searchParams.get('code')!, callback.searchParams.get('state')!, ...codehostApi.requests.map((r) => r.token).filter((t): t is string => Boolean(t))];
      const logs = testApp.logs.join('\n');
      for (const secret of secrets) expect(logs).not.toContain(secret);
      expect(logs).toContain('provider flow ended without signing in');
      expect(await accountsOf(user.email!)).toHaveLength(1);
    });
  });

  describe('the sign-in page', () => {
    test('GET /auth/login lists the offered providers and the e-mail link form, carries next, and needs no script', async () => {
      const page = await new Browser().visit(`${base}/auth/login?next=%2Fprojects`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
      expect(page.text).not.toMatch(/<script/i);
      for (const provider of ['idpa', 'idpc', 'codehost']) expect(page.text).toContain(`href="/auth/${provider}/login?next=%2Fprojects"`);
      expect(page.text).toContain('<form method="post" action="/auth/magic">');
      expect(page.text).toMatch(/<label for="email">[^<]+<\/label>\s*<input type="email" id="email" name="email" required/);
      expect(page.text).toContain('<input type="hidden" name="next" value="/projects">');
      expect(page.text).not.toContain('role="alert"');
    });

    test('after a refused flow it says why, from a fixed message; it echoes nothing else it was given', async () => {
      const refused = await new Browser().visit(`${base}/auth/login?error=state&provider=idpa`);
      expect(refused.text).toMatch(/<p class="error" role="alert">This sign-in could not be completed: it was started in another browser/);
      const odd = await new Browser().visit(`${base}/auth/login?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&provider=%3Cb%3E&next=https%3A%2F%2Fattacker.example`);
      expect(odd.status).toBe(200);
      expect(odd.text).not.toMatch(/<script|<b>|attacker\.example|role="alert"/);
    });
  });

  describe('flow 2: repository connection', () => {
    const cookieOf = (browser: Browser) => `baton_session=${browser.cookies(base).get('baton_session')!.value}`;
    const connectionsOf = (accountId: string) =>
      db.query<{ account_login: string; scopes: string; token_sealed: string }>(
        'SELECT account_login, scopes, token_sealed FROM control.codehost_connections WHERE account_id = $1',
        [accountId],
      );

    /** Signs a new person in through the code host, then connects their repositories; answers the token the code host issued. */
    async function connect(browser: Browser, next = '') {
      const user = person(codehost);
      await run(browser, '/auth/codehost/login');
      const before = codehostApi.requests.length;
      const visits = await run(browser, `/auth/codehost/repo-connect${next}`);
      const token = codehostApi.requests.slice(before).find((r) => r.path === '/user')?.token;
      const [account] = await accountsOf(user.email!);
      return { user, visits, token: token!, accountId: account.id, http: new Http(base).withHeaders({ cookie: cookieOf(browser), origin: base }) };
    }

    test('not signed in: repo-connect sends the browser to the sign-in page, to come back to it', async () => {
      const visit = await new Browser().visit(`${base}/auth/codehost/repo-connect?next=/settings`);
      expect(visit.status).toBe(303);
      expect(visit.location).toBe(`${base}/auth/login?next=${encodeURIComponent('/auth/codehost/repo-connect?next=/settings')}`);
      expect(visit.setCookies).toEqual([]);
    });

    test('a signed-in person connects: the token is stored sealed, listed without it, never logged, and DELETE removes the connection', async () => {
      const browser = new Browser();
      const { user, visits, token, accountId, http } = await connect(browser, '?next=/settings/code');
      const authorize = new URL(visits[0].location!);
      expect(Object.fromEntries(authorize.searchParams)).toMatchObject({ scope: 'repo', redirect_uri: `${base}/auth/codehost/repo-callback`, code_challenge_method: 'S256' });
      expect(visits.at(-1)).toMatchObject({ status: 303, location: `${base}/settings/code` });
      expect(token).toMatch(/^[\w-]{20,}$/);

      const rows = await connectionsOf(accountId);
      expect(rows).toEqual([{ account_login: user.login, scopes: 'repo', token_sealed: expect.stringMatching(/^v1\./) }]);
      expect(JSON.stringify(await db.query('SELECT * FROM control.codehost_connections'))).not.toContain(token);
      expect(sealerFor(testApp.config, 'codehost-token').open(rows[0].token_sealed)).toBe(token);

      const list = await http.get('/codehost/connections');
      expect(list.status).toBe(200);
      expect(list.body).toEqual([{ account_login: user.login, scopes: ['repo'], created_at: expect.any(String), updated_at: expect.any(String) }]);
      expect(list.text).not.toContain(token);
      expect(testApp.logs.join('\n')).not.toContain(token);

      const withoutOrigin = await new Http(base).withHeaders({ cookie: cookieOf(browser) }).delete(`/codehost/connections/${user.login}`);
      expect(withoutOrigin.status).toBe(403);
      expect(await connectionsOf(accountId)).toHaveLength(1);

      expect((await http.delete(`/codehost/connections/${user.login!.toUpperCase()}`)).status).toBe(204);
      expect(await connectionsOf(accountId)).toEqual([]);
      const again = await http.delete(`/codehost/connections/${user.login}`);
      expect(again).toMatchObject({ status: 404, body: { detail: `no code-host connection for account_login ${user.login}`, code: 'CODEHOST_CONNECTION_NOT_FOUND' } });
      const bad = await http.delete('/codehost/connections/not%20a%20login');
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/account_login must be a code-host account name/);
    });

    test('connecting again replaces the token; another person sees none of it and cannot remove it', async () => {
      const browser = new Browser();
      const first = await connect(browser);
      const sealed = (await connectionsOf(first.accountId))[0].token_sealed;
      await run(browser, '/auth/codehost/repo-connect');
      const rows = await connectionsOf(first.accountId);
      expect(rows).toHaveLength(1);
      expect(rows[0].token_sealed).not.toBe(sealed);

      const other = await signIn(testApp, `other-${Date.now()}@example.test`);
      expect((await other.http.get('/codehost/connections')).body).toEqual([]);
      expect((await other.http.delete(`/codehost/connections/${first.user.login}`)).status).toBe(404);
      expect(await connectionsOf(first.accountId)).toHaveLength(1);
    });

    test('a callback finished by another signed-in person keeps nothing', async () => {
      const browser = new Browser();
      const user = person(codehost);
      await run(browser, '/auth/codehost/login');
      const [starter] = await accountsOf(user.email!);
      const callback = await untilCallback(browser, '/auth/codehost/repo-connect');
      const other = await signIn(testApp, `switched-${Date.now()}@example.test`);
      browser.setCookie(base, { name: 'baton_session', value: other.cookie.split('=').slice(1).join('=') });
      await expectRefused(await browser.visit(callback.toString()), 'session', null);
      expect(await connectionsOf(other.accountId)).toEqual([]);
      expect(await connectionsOf(starter.id)).toEqual([]);
    });

    test('GET /codehost/connections needs a signed-in person: 401 anonymous or with only an API token', async () => {
      const anonymous = await new Http(base).get('/codehost/connections');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.detail).toMatch(/sign in first/);
      const tenant = await signIn(testApp, `token-${Date.now()}@example.test`);
      const token = await testApp.app.get(ApiTokens).createToken(tenant.tenantId, 'ci');
      expect((await new Http(base, token).get('/projects')).status).toBe(200);
      expect((await new Http(base, token).get('/codehost/connections')).status).toBe(401);
    });
  });

  describe('self-hosted, and providers that are not configured', () => {
    test('self-hosted: every sign-in route answers 404 saying sign-in is for hosted mode', async () => {
      const local = await startApp({ IDPA_CLIENT_ID: 'id', IDPA_CLIENT_SECRET: 'secret', CODEHOST_CLIENT_ID: 'id', CODEHOST_CLIENT_SECRET: 'secret' });
      try {
        const http = new Http(local.url);
        const paths = ['/auth/login', '/auth/email-required', '/auth/idpa/login', '/auth/callback', '/auth/idpa/callback', '/auth/idpc/login', '/auth/idpc/callback'];
        paths.push('/auth/codehost/login', '/auth/codehost/callback', '/auth/codehost/repo-connect', '/auth/codehost/repo-callback', '/codehost/connections');
        for (const path of paths) {
          const res = await http.get(path);
          expect({ path, status: res.status, detail: res.body?.detail }).toEqual({ path, status: 404, detail: expect.stringMatching(/hosted mode/) });
        }
        expect((await http.delete('/codehost/connections/someone')).status).toBe(404);
      } finally {
        await local.close();
      }
    });

    test('a provider without client id and secret is not offered: not on the page, its routes answer 404 naming the variables', async () => {
      const port = await freePort();
      const deadIssuer = `http://127.0.0.1:${await freePort()}`;
      const only = await startApp(
        hostedEnv(db.url, { SERVICE_PORT: String(port), APP_URL: `http://127.0.0.1:${port}`, IDPA_CLIENT_ID: 'id', IDPA_CLIENT_SECRET: 'secret', IDPA_ISSUER_URL: deadIssuer }),
      );
      try {
        const http = new Http(only.url);
        const page = await http.get('/auth/login');
        expect(page.text).toContain('href="/auth/idpa/login"');
        expect(page.text).not.toMatch(/\/auth\/(idpc|codehost)\/login/);
        const idpcLogin = await http.get('/auth/idpc/login');
        expect(idpcLogin).toMatchObject({ status: 404, body: { detail: 'sign-in with idpc is not offered here (IDPC_CLIENT_ID and IDPC_CLIENT_SECRET are not set)' } });
        expect((await http.get('/auth/idpc/callback?code=x&state=y')).status).toBe(404);
        expect((await http.get('/auth/codehost/callback?code=x&state=y')).status).toBe(404);
        expect((await http.get('/auth/codehost/repo-connect')).body.detail).toMatch(/repository connection is not offered here \(CODEHOST_CLIENT_ID/);

        // idpa is offered, but its provider cannot be reached: back to the page, which says so.
        const unreachable = await new Browser().visit(`${only.url}/auth/idpa/login`);
        expect(unreachable.status).toBe(303);
        expect(unreachable.location).toBe(`${only.url}/auth/login?error=unreachable&provider=idpa`);
        expect(unreachable.setCookies).toEqual([]);
      } finally {
        await only.close();
      }
    });
  });
});
