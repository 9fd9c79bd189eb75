import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { CodehostConnections } from '../src/modules/auth-providers/codehost-connections.service';
import { freshEmail, signIn } from './support/accounts';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const run = promisify(execFile);

/**
 * What a stolen backup gives away: a dump of the whole hosted database holds
 * none of the secrets people and clients present (API tokens, web-session
 * cookies, magic-link and invitation tokens, code-host tokens, own-database
 * URLs), only their hashes or sealed forms. The OAuth server's tokens and
 * codes have their own dump check in test/mcp-oauth.e2e-spec.ts.
 */
describePostgres('secrets at rest', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    testApp = await startApp(hostedEnv(db.url, { EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url, SERVICE_BYODB_ALLOWED_HOSTS: '127.0.0.1' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await mail?.close();
    await db?.drop();
  });

  /** The token of the last link to `path` e-mailed to `email`. */
  async function linkTokenSent(email: string, path: string): Promise<string> {
    const pattern = new RegExp(`${path.replace(/[/?]/g, '\\$&')}\\?token=([A-Za-z0-9_-]+)`);
    const letter = await waitUntil(() => mail.at('/emails').find((m) => [m.body.to].flat().includes(email) && pattern.test(m.body.text)), 5000, `the e-mail to ${email}`);
    return pattern.exec(letter.body.text)![1];
  }

  test('a pg_dump of the whole database holds no token, session id, link token or code-host token in clear', async () => {
    const owner = await signIn(testApp, freshEmail('owner'));
    const secrets: Record<string, string> = {};

    const created = await owner.http.post('/auth/tokens', { label: 'ci' });
    expect(created.status).toBe(201);
    secrets['API token'] = created.body.token;
    secrets['web-session secret'] = decodeURIComponent(owner.cookie.split('=')[1]).slice(2).split('.')[0];

    const magicEmail = freshEmail('magic');
    expect((await new Http(testApp.url).post('/auth/magic', { email: magicEmail })).status).toBe(202);
    secrets['magic-link token'] = await linkTokenSent(magicEmail, '/auth/magic/verify');

    const invited = freshEmail('invited');
    expect((await owner.http.post('/workspace/invite', { email: invited })).status).toBe(201);
    secrets['invitation token'] = await linkTokenSent(invited, '/workspace/accept');

    secrets['code-host token'] = `gho_${randomBytes(18).toString('hex')}`;
    await testApp.app.get(CodehostConnections).save(owner.accountId, 'octo-owner', ['repo'], secrets['code-host token']);

    const ownDb = await TestDatabase.create('baton_own');
    try {
      // Local Postgres trusts loopback, so any password is accepted: enough to prove it is never stored in clear.
      const url = new URL(ownDb.url);
      url.password = secrets['own database password'] = 'own-db-password-' + randomBytes(6).toString('hex');
      const connected = await owner.http.post('/workspace/connect-db', { url: url.toString() });
      expect(connected.status).toBe(200);
      expect((await db.query('SELECT db_url_sealed FROM control.tenants WHERE id = $1', [owner.tenantId]))[0].db_url_sealed).toMatch(/^v1\./);

      for (const value of Object.values(secrets)) expect(value.length).toBeGreaterThan(15);
      const { stdout } = await run('pg_dump', ['--data-only', db.url], { maxBuffer: 256 * 1024 * 1024 });
      expect(stdout).toContain('web_sessions');
      for (const [name, value] of Object.entries(secrets)) expect({ name, found: stdout.includes(value) }).toEqual({ name, found: false });
    } finally {
      await ownDb.drop();
    }
  });
});
