import { hash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { freshEmail, signIn } from './support/accounts';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describePostgres, describeRedis } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const FORM = 'application/x-www-form-urlencoded';
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/**
 * One request from the loopback address `from` (127.0.0.x): the request limits count per
 * client address, so each test speaks from its own and the tests do not use up each other's.
 */
function send(base: string, from: string, method: string, path: string, body?: string, contentType = 'application/json'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A form is posted, and a link opened, by a browser: it asks for HTML first.
    const browser: Record<string, string> = contentType === FORM || path.startsWith('/auth/magic/verify') ? { accept: BROWSER_ACCEPT } : {};
    const headers: Record<string, string> = body === undefined ? browser : { ...browser, 'content-type': contentType, 'content-length': String(Buffer.byteLength(body)) };
    const req = httpRequest(new URL(path, base), { method, localAddress: from, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const ACCEPTED = {
  message: 'if the address can receive e-mail, a sign-in link is on its way; it works once, for 15 minutes',
  expires_in_seconds: 900,
};
const sha256 = (value: string) => hash('sha256', value, 'hex');

describePostgres('magic-link sign-in (hosted)', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;
  let client = 10;
  /** A loopback address of the test's own. */
  const nextClient = () => `127.0.0.${client++}`;

  const ask = (from: string, body: Record<string, unknown>) => send(testApp.url, from, 'POST', '/auth/magic', JSON.stringify(body));
  const open = (from: string, token: string) => send(testApp.url, from, 'GET', `/auth/magic/verify?token=${encodeURIComponent(token)}`);
  const linksTo = (email: string) => db.query<Record<string, any>>('SELECT * FROM control.magic_links WHERE email = $1 ORDER BY created_at', [email]);
  const mailsTo = (email: string) => mail.at('/emails').filter((m) => m.body.to === email || (Array.isArray(m.body.to) && m.body.to.includes(email)));
  /** The token of the last link e-mailed to `email`. */
  async function tokenSentTo(email: string, count = 1): Promise<string> {
    const mails = await waitUntil(() => mailsTo(email).length >= count && mailsTo(email), 5000, `e-mail to ${email}`);
    const link = /http:\/\/127\.0\.0\.1\/auth\/magic\/verify\?token=([A-Za-z0-9_-]{43})\n/.exec(mails[mails.length - 1].body.text);
    expect(link).not.toBeNull();
    return link![1];
  }
  const cookieOf = (answer: Answer) => ([] as string[]).concat(answer.headers['set-cookie'] ?? []).find((c) => c.startsWith('baton_session='));

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    testApp = await startApp(hostedEnv(db.url, { EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url }));
  });
  afterAll(async () => {
    await testApp?.close();
    await mail?.close();
    await db?.drop();
  });

  test('a request answers 202 and e-mails a single-use link; opening it signs the address in and goes to next', async () => {
    const from = nextClient();
    const email = freshEmail('ada');
    const asked = await ask(from, { email: `  ${email.toUpperCase()} `, next: '/dashboard/projects?tab=open' });
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual(ACCEPTED);

    const token = await tokenSentTo(email);
    const [sent] = mailsTo(email);
    expect(sent.body).toMatchObject({ to: email, subject: 'Your Baton sign-in link' });
    expect(sent.body.text).toContain(`http://127.0.0.1/auth/magic/verify?token=${token}\n`);
    expect(sent.body.text).toContain('It works once, for 15 minutes.');
    const [link] = await linksTo(email);
    expect(link).toMatchObject({ token_hash: sha256(token), next: '/dashboard/projects?tab=open', consumed_at: null });
    expect(link.expires_at.getTime() - link.created_at.getTime()).toBe(15 * 60_000);
    expect(JSON.stringify(link)).not.toContain(token);
    expect(testApp.logs.join('\n')).not.toContain(token);

    const opened = await open(from, token);
    expect(opened.status).toBe(303);
    expect(opened.headers.location).toBe('/dashboard/projects?tab=open');
    const cookie = cookieOf(opened);
    expect(cookie).toMatch(/HttpOnly/);
    expect((await linksTo(email))[0].consumed_at).toBeInstanceOf(Date);
    const me = await new Http(testApp.url).get('/me', { cookie: cookie!.split(';')[0] });
    expect(me.body.account.email).toBe(email);
    expect(await db.query('SELECT provider, subject FROM control.account_identities WHERE email = $1', [email])).toEqual([{ provider: 'magic', subject: email }]);

    const again = await open(from, token);
    expect(again.status).toBe(410);
    expect(again.headers['content-type']).toMatch(/^text\/html/);
    expect(again.text).toContain('this sign-in link was already used: each link signs in once; ask for a new link on the sign-in page');
    expect(cookieOf(again)).toBeUndefined();
  });

  test('a known and an unknown address get the same answer', async () => {
    const from = nextClient();
    const known = freshEmail('known');
    await signIn(testApp, known);
    const unknown = freshEmail('unknown');
    const answers = [await ask(from, { email: known }), await ask(from, { email: unknown })];
    for (const answer of answers) {
      expect(answer.status).toBe(202);
      expect(answer.body).toEqual(ACCEPTED);
      expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(answers[0].text).toBe(answers[1].text);
    // A link is also how a new person signs up: both addresses get one.
    await tokenSentTo(known);
    await tokenSentTo(unknown);
  });

  test('an expired, unknown or malformed link is refused with a page saying why, and signs no one in', async () => {
    const from = nextClient();
    const email = freshEmail('late');
    await ask(from, { email });
    const token = await tokenSentTo(email);
    await db.query("UPDATE control.magic_links SET expires_at = now() - interval '1 second' WHERE email = $1", [email]);
    const expired = await open(from, token);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('this sign-in link has expired (links work for 15 minutes); ask for a new link on the sign-in page');
    expect((await linksTo(email))[0].consumed_at).toBeNull();

    const unknown = await open(from, randomBytes(32).toString('base64url'));
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain('this sign-in link is not valid');
    expect((await open(from, 'short')).status).toBe(400);
    const missing = await send(testApp.url, from, 'GET', '/auth/magic/verify');
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('token is required');
    // An API client opening a link gets the refusal as JSON.
    const asJson = await new Http(testApp.url).get('/auth/magic/verify?token=short');
    expect(asJson).toMatchObject({ status: 400, body: { code: 'MAGIC_LINK_UNKNOWN', detail: expect.stringContaining('this sign-in link is not valid') } });
    for (const answer of [expired, unknown, missing]) expect(cookieOf(answer)).toBeUndefined();
    expect(await db.query('SELECT id FROM control.accounts WHERE email = $1', [email])).toEqual([]);
  });

  test('a next that leaves the site is dropped: the link goes to SERVICE_AFTER_LOGIN_URL', async () => {
    const from = nextClient();
    for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const email = freshEmail('next');
      await ask(from, { email, next });
      const token = await tokenSentTo(email);
      expect((await linksTo(email))[0].next).toBeNull();
      expect((await open(from, token)).headers.location).toBe('/dashboard');
    }
  });

  test('a link opened twice at once signs in exactly once', async () => {
    const from = nextClient();
    const email = freshEmail('race');
    await ask(from, { email });
    const token = await tokenSentTo(email);
    const answers = await Promise.all([open(from, token), open(from, token), open(from, token)]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 410, 410]);
    expect(answers.filter((a) => cookieOf(a))).toHaveLength(1);
  });

  test('the sign-in page’s form post gets a "check your inbox" page, and a bad address a page saying so', async () => {
    const from = nextClient();
    const email = freshEmail('form');
    const form = `email=${encodeURIComponent(email)}&next=${encodeURIComponent('/dashboard')}`;
    const posted = await send(testApp.url, from, 'POST', '/auth/magic', form, FORM);
    expect(posted.status).toBe(202);
    expect(posted.headers['content-type']).toMatch(/^text\/html/);
    expect(posted.text).toContain('<h1>Check your inbox</h1>');
    expect(posted.headers['content-security-policy']).toContain("default-src 'none'");
    expect(posted.headers['cache-control']).toBe('no-store');
    await tokenSentTo(email);
    expect((await linksTo(email))[0].next).toBe('/dashboard');

    const bad = await send(testApp.url, from, 'POST', '/auth/magic', 'email=not-an-address', FORM);
    expect(bad.status).toBe(400);
    expect(bad.headers['content-type']).toMatch(/^text\/html/);
    expect(bad.text).toContain('email must be an e-mail address');
  });

  test.each([
    [{}, 'email is required'],
    [{ email: 'not-an-address' }, 'email must be an e-mail address'],
    [{ email: 42 }, 'email must be a string'],
    [{ email: 'a@example.test', next: 5 }, 'next must be a string'],
    [{ email: 'a@example.test', remember: true }, 'unknown field remember'],
  ])('%j is refused with 400 "%s", and nothing is stored or sent', async (body, detail) => {
    const links = (await db.query('SELECT id FROM control.magic_links')).length;
    const mails = mail.requests.length;
    const answer = await ask(nextClient(), body);
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toBe(detail);
    await sleep(100);
    expect(await db.query('SELECT id FROM control.magic_links')).toHaveLength(links);
    expect(mail.requests).toHaveLength(mails);
  });

  test('five links per address per 15 minutes, then 429 with Retry-After; nothing more is stored or sent', async () => {
    const email = freshEmail('busy');
    for (let i = 0; i < 5; i++) expect((await ask(nextClient(), { email })).status).toBe(202);
    const refused = await ask(nextClient(), { email });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', detail: 'too many sign-in links were requested; try again in 15 minute(s)' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890);
    await waitUntil(() => mailsTo(email).length === 5, 5000, 'five e-mails');
    await sleep(200);
    expect(mailsTo(email)).toHaveLength(5);
    expect(await linksTo(email)).toHaveLength(5);
    const form = await send(testApp.url, nextClient(), 'POST', '/auth/magic', `email=${encodeURIComponent(email)}`, FORM);
    expect(form.status).toBe(429);
    expect(form.text).toContain('<h1>Too many requests</h1>');
  });

  test('twenty links per client address per 15 minutes, whatever the addresses; another client is not held back', async () => {
    const from = nextClient();
    for (let i = 0; i < 20; i++) expect((await ask(from, { email: freshEmail('many') })).status).toBe(202);
    const refused = await ask(from, { email: freshEmail('many') });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(890);
    expect((await ask(nextClient(), { email: freshEmail('other') })).status).toBe(202);
  });
});

describePostgres('magic-link sign-in without e-mail configured', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_EMAIL_API_URL: mail.url }));
  });
  afterAll(async () => {
    await testApp?.close();
    await mail?.close();
    await db?.drop();
  });

  test('the answer is the same 202; no link is stored and nothing is sent', async () => {
    const answer = await send(testApp.url, '127.0.0.2', 'POST', '/auth/magic', JSON.stringify({ email: freshEmail() }));
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual(ACCEPTED);
    await sleep(300);
    expect(await db.query('SELECT id FROM control.magic_links')).toEqual([]);
    expect(mail.requests).toEqual([]);
    expect(testApp.logs.some((line) => line.includes('sign-in link requested but e-mail is not configured'))).toBe(true);
  });
});

describeRedis('magic-link request limits across instances (Redis)', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    const env = hostedEnv(db.url, { EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url, SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('magic') });
    one = await startApp(env);
    two = await startApp(env);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await mail?.close();
    await db?.drop();
  });

  test('the five links of an address are counted once across both instances', async () => {
    const email = freshEmail('shared');
    const body = JSON.stringify({ email });
    for (let i = 0; i < 5; i++) expect((await send(i % 2 ? one.url : two.url, `127.0.1.${i + 1}`, 'POST', '/auth/magic', body)).status).toBe(202);
    expect((await send(one.url, '127.0.1.9', 'POST', '/auth/magic', body)).status).toBe(429);
    expect((await send(two.url, '127.0.1.10', 'POST', '/auth/magic', body)).status).toBe(429);
    expect(await db.query('SELECT id FROM control.magic_links WHERE email = $1', [email])).toHaveLength(5);
  });
});

describe('magic-link sign-in (self-hosted)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('both routes answer 404 with a detail', async () => {
    const asked = await new Http(testApp.url).post('/auth/magic', { email: 'a@example.test' });
    expect(asked.status).toBe(404);
    expect(asked.body.detail).toBe('sign-in by e-mail link is for hosted mode: a self-hosted Baton needs no sign-in');
    const opened = await new Http(testApp.url).get(`/auth/magic/verify?token=${randomBytes(32).toString('base64url')}`, { accept: BROWSER_ACCEPT });
    expect(opened.status).toBe(404);
    expect(opened.headers.get('content-type')).toMatch(/^text\/html/);
    expect(opened.text).toContain('sign-in by e-mail link is for hosted mode');
  });
});
