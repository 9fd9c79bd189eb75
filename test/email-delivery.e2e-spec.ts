import { EmailQueue } from '../src/modules/notifications/email-queue.service';
import { freshEmail, signIn } from './support/accounts';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const ADMIN = 'mail-admin@example.test';

/** Transactional e-mail of a hosted Baton: templates with both parts, sent off the request's path, failures shown to admins. */
describePostgres('e-mail delivery', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    testApp = await startApp(hostedEnv(db.url, { EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url, SERVICE_ADMIN_EMAILS: ADMIN, SERVICE_NOTIFY_TIMEOUT_MS: '1000' }));
  });
  afterAll(async () => {
    mail.reply = null;
    mail.status = 200;
    await testApp?.close();
    await mail?.close();
    await db?.drop();
  });

  const lettersTo = (to: string) => mail.at('/emails').filter((r) => [r.body.to].flat().includes(to));

  /** Signs `email` in through the e-mailed link, as a person would; answers the session cookie. */
  async function signInByLink(email: string, from: string): Promise<string> {
    const count = lettersTo(email).length;
    expect((await new Http(testApp.url).post('/auth/magic', { email }, { 'x-forwarded-for': from })).status).toBe(202);
    const letters = await waitUntil(() => lettersTo(email).length > count && lettersTo(email), 5000, 'the sign-in link');
    const token = /token=([A-Za-z0-9_-]{43})/.exec(letters[letters.length - 1].body.text)![1];
    const opened = await fetch(`${testApp.url}/auth/magic/verify?token=${token}`, { redirect: 'manual', headers: { 'x-forwarded-for': from } });
    expect(opened.status).toBe(303);
    return opened.headers.get('set-cookie')!.split(';')[0];
  }

  test('the sign-in that makes a workspace sends one welcome e-mail, text and HTML, with the first-token instructions', async () => {
    const email = freshEmail('welcome');
    await signInByLink(email, '127.0.0.40');
    const welcome = () => lettersTo(email).filter((r) => /^Welcome to Baton/.test(r.body.subject));
    const [letter] = await waitUntil(() => welcome().length > 0 && welcome(), 5000, 'the welcome e-mail');
    expect(letter.body.text).toMatch(/first API token/);
    expect(letter.body.text).toContain(`${testApp.config.baseUrl}/mcp`);
    expect(letter.body.html).toMatch(/^<!doctype html>.*first API token.*<\/html>$/s);
    // Signing in again makes no workspace and sends no second welcome.
    await signInByLink(email, '127.0.0.41');
    await testApp.app.get(EmailQueue).drain();
    expect(welcome()).toHaveLength(1);
  });

  test('the sign-in link e-mail has an HTML part with the same link', async () => {
    const email = freshEmail('linkhtml');
    await new Http(testApp.url).post('/auth/magic', { email }, { 'x-forwarded-for': '127.0.0.42' });
    const [letter] = await waitUntil(() => lettersTo(email).length > 0 && lettersTo(email), 5000, 'the sign-in link');
    const link = /(http\S+token=[A-Za-z0-9_-]{43})/.exec(letter.body.text)![1];
    expect(letter.body.html).toContain(`href="${link}"`);
  });

  test('a slow provider does not hold the request that sends the e-mail', async () => {
    mail.reply = () => new Promise((resolve) => setTimeout(() => resolve({ id: 'slow' }), 900));
    try {
      const started = Date.now();
      const res = await new Http(testApp.url).post('/auth/magic', { email: freshEmail('slow') }, { 'x-forwarded-for': '127.0.0.50' });
      expect(res.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(800);
    } finally {
      await testApp.app.get(EmailQueue).drain();
      mail.reply = null;
    }
  });

  test('a send that fails every retry is answered nothing worse for the request, and shows in GET /admin/health', async () => {
    const admin = await signIn(testApp, ADMIN);
    await testApp.app.get(EmailQueue).drain();
    const before = (await admin.http.get('/admin/health')).body.email;
    mail.status = 500;
    try {
      const res = await new Http(testApp.url).post('/auth/magic', { email: 'someone@failing.example.test' }, { 'x-forwarded-for': '127.0.0.51' });
      expect(res.status).toBe(202);
      const health = await waitUntil(
        async () => {
          const body = (await admin.http.get('/admin/health')).body;
          return body.email.failed > before.failed && body;
        },
        20_000,
        'the failure in admin health',
      );
      expect(health.email).toMatchObject({ configured: true, failed: before.failed + 1 });
      expect(health.email.recent_failures.at(-1)).toEqual({
        kind: 'magic_link',
        recipient_domain: 'failing.example.test',
        error_class: expect.any(String),
        failed_at: expect.any(String),
      });
      expect(JSON.stringify(health.email)).not.toContain('someone@');
      // Three rounds of the sender's three attempts each.
      expect(mail.requests.filter((r) => [r.body?.to].flat().includes('someone@failing.example.test'))).toHaveLength(9);
    } finally {
      mail.status = 200;
    }
  }, 30_000);
});
