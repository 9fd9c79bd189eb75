import { randomUUID } from 'node:crypto';
import { NotifySettings } from '../src/modules/notifications/notify-settings.entity';
import { classifyAddress } from '../libs/outbound-guard';
import { expectRefused } from './support/bad-input';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

describe('notifications on a self-hosted instance', () => {
  let testApp: TestApp;
  let http: Http;
  let hook: Receiver;
  let mail: Receiver;

  beforeAll(async () => {
    hook = await Receiver.start();
    mail = await Receiver.start();
    testApp = await startApp({
      EMAIL_API_KEY: 're_test_key',
      SERVICE_EMAIL_API_URL: mail.url,
      SERVICE_FROM_EMAIL: 'Baton <baton@example.test>',
      SERVICE_NOTIFY_TIMEOUT_MS: '1000',
    });
    http = new Http(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
    await hook?.close();
    await mail?.close();
  });

  const project = async (name: string, autoAnswer: boolean) => {
    const id = (await http.post('/projects', { name })).body.id;
    await http.patch(`/projects/${id}/settings`, { hitl_auto_answer: autoAnswer });
    const session = (await http.post('/sessions/register', { project_id: id })).body;
    return { id, session: session.id as string };
  };

  test('an auto-answer project sends nothing; a normal one posts exactly one JSON notification and one e-mail', async () => {
    const auto = await project('Notify auto', true);
    const normal = await project('Notify normal', false);
    for (const p of [auto, normal]) {
      const set = await http.patch(`/projects/${p.id}/ntfy`, { notify_url: `${hook.url}/hook/${p.id}`, notify_email: 'owner@example.test' });
      expect(set.body).toEqual({ project_id: p.id, notify_url: `${hook.url}/hook/${p.id}`, notify_email: 'owner@example.test' });
    }
    expect((await http.get(`/projects/${normal.id}/ntfy`)).body.notify_email).toBe('owner@example.test');

    const started = Date.now();
    const autoQ = await http.post(`/projects/${auto.id}/hitl`, { question: 'Auto?', session_id: auto.session });
    expect(autoQ.body.answered_by).toBe('auto');
    const q = await http.post(`/projects/${normal.id}/hitl`, { question: 'Q'.repeat(300), session_id: normal.session, urgency: 'high' });
    expect(q.status).toBe(201);
    expect(Date.now() - started).toBeLessThan(2000);

    await waitUntil(() => hook.at(`/hook/${normal.id}`).length === 1 && mail.at('/emails').length === 1, 5000, 'notification and e-mail');
    await sleep(1500); // anything extra (a retry, a second send) would arrive by now
    expect(hook.at(`/hook/${auto.id}`)).toHaveLength(0);
    const posted = hook.at(`/hook/${normal.id}`);
    expect(posted).toHaveLength(1);
    expect(posted[0].headers['content-type']).toBe('application/json');
    expect(posted[0].body).toMatchObject({ title: 'Action needed (HIGH)', event: 'hitl_created', source: 'baton', hitl_id: q.body.id, project_id: normal.id });
    expect(posted[0].body.body.startsWith('Q'.repeat(200) + '\n')).toBe(true);
    // The link leads to the project's inbox on the dashboard, where the question is answered, on the address the server serves.
    const inbox = `${testApp.url}/dashboard/projects/${normal.id}/hitl`;
    expect(posted[0].body.body.split('\n').at(-1)).toBe(inbox);
    const emails = mail.at('/emails');
    expect(emails).toHaveLength(1);
    expect(emails[0].headers.authorization).toBe('Bearer re_test_key');
    expect(emails[0].body).toMatchObject({ from: 'Baton <baton@example.test>', to: 'owner@example.test', subject: 'Action needed (HIGH)' });
    expect(emails[0].body.text.split('\n').at(-1)).toBe(inbox);
  });

  test('POST .../notify/test reports each channel; clearing with null stops them', async () => {
    const p = await project('Notify test', false);
    expect((await http.post(`/projects/${p.id}/notify/test`)).body).toEqual({ url: 'not_configured', email: 'not_configured' });
    await http.patch(`/projects/${p.id}/ntfy`, { notify_url: `${hook.url}/test/${p.id}`, notify_email: 'a@example.test' });
    const res = await http.post(`/projects/${p.id}/notify/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ url: 'delivered', email: 'sent' });
    expect(hook.at(`/test/${p.id}`)[0].body).toMatchObject({ event: 'notify_test', source: 'baton' });
    // The test notification links to the project's settings page on the dashboard, where notifications are set up.
    expect(hook.at(`/test/${p.id}`)[0].body.body.split('\n').at(-1)).toBe(`${testApp.url}/dashboard/projects/${p.id}/settings`);
    await http.patch(`/projects/${p.id}/ntfy`, { notify_url: null });
    expect((await http.get(`/projects/${p.id}/ntfy`)).body).toEqual({ project_id: p.id, notify_url: null, notify_email: 'a@example.test' });
    const client = await connectMcp(testApp.url);
    try {
      expect((await callTool(client, 'get_notification_settings', { project_id: p.id })).value.notify_email).toBe('a@example.test');
      expect((await callTool(client, 'update_notification_settings', { project_id: p.id, notify_email: null })).value.notify_email).toBeNull();
      expect((await callTool(client, 'send_test_notification', { project_id: p.id })).value).toEqual({ url: 'not_configured', email: 'not_configured' });
    } finally {
      await client.close();
    }
  });

  test('a failing receiver is retried a bounded number of times and never slows or fails the question', async () => {
    const failing = await Receiver.start();
    failing.status = 503;
    try {
      const p = await project('Notify failing', false);
      await http.patch(`/projects/${p.id}/ntfy`, { notify_url: `${failing.url}/down` });
      const started = Date.now();
      const q = await http.post(`/projects/${p.id}/hitl`, { question: 'Still asked?', session_id: p.session });
      expect(q.status).toBe(201);
      expect(Date.now() - started).toBeLessThan(1000);
      await waitUntil(() => failing.requests.length === 3, 10_000, 'three attempts');
      await sleep(1500);
      expect(failing.requests).toHaveLength(3);
      expect((await http.post(`/projects/${p.id}/notify/test`)).body.url).toBe('failed');
    } finally {
      await failing.close();
    }
  });

  test('settings refuse bad input with 4xx and a detail; self-hosted accepts local targets', async () => {
    const p = await project('Notify bad input', false);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ notify_url: 'not a url' }, /notify_url must be an absolute http\(s\) URL/],
      [{ notify_url: 'ftp://example.test/x' }, /http\(s\)/],
      [{ notify_url: 'http://user:pw@example.test/' }, /credentials/],
      [{ notify_email: 'nope' }, /notify_email must be an e-mail address/],
      [{ notify_url: 5 }, /notify_url must be a string/],
      [{ other: 1 }, /unknown field other/],
    ];
    await expectRefused((body) => http.patch(`/projects/${p.id}/ntfy`, body), cases);
    expect((await http.patch(`/projects/${p.id}/ntfy`, { notify_url: 'http://127.0.0.1:9/x' })).status).toBe(200);
    expect((await http.get(`/projects/${randomUUID()}/ntfy`)).status).toBe(404);
    expect((await http.post(`/projects/${randomUUID()}/notify/test`)).status).toBe(404);
  });
});

describePostgres('notifications on a hosted instance (SSRF refusals)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let hook: Receiver;

  beforeAll(async () => {
    hook = await Receiver.start();
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_NOTIFY_TIMEOUT_MS: '1000' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
    await hook?.close();
  });

  test('notify URLs on 127.0.0.1, 10.x, 169.254.x, other private ranges or names resolving to them are refused (400), before any connection', async () => {
    const { http } = await tenantClient(testApp, 'ssrf');
    const p = (await http.post('/projects', { name: 'SSRF' })).body.id;
    for (const url of [
      `${hook.url}/hook`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data',
      'http://192.168.1.10/',
      'http://172.16.0.1/',
      'http://[::1]:8080/',
      'http://[::ffff:127.0.0.1]/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
      'http://2130706433/',
      'http://localhost:9/',
    ]) {
      const res = await http.patch(`/projects/${p}/ntfy`, { notify_url: url });
      expect([url, res.status, res.body.code]).toEqual([url, 400, 'NOTIFY_TARGET_REFUSED']);
      expect(res.body.detail).toMatch(/a (loopback|private|link-local|unspecified) address|does not resolve/);
    }
    expect(hook.requests).toHaveLength(0);
    expect((await http.get(`/projects/${p}/ntfy`)).body.notify_url).toBeNull();
  });

  test('a stored internal URL is checked again at send time: the question is created, nothing is sent', async () => {
    const { token, http } = await tenantClient(testApp, 'ssrf-send');
    const p = (await http.post('/projects', { name: 'SSRF send' })).body.id;
    const s = (await http.post('/sessions/register', { project_id: p })).body;
    // As if the address had been saved before it started resolving to an internal one.
    await inTenantDb(testApp, token, (m) => m.insert(NotifySettings, { project_id: p, notify_url: `${hook.url}/late`, notify_email: null, updated_at: new Date() }));
    const q = await http.post(`/projects/${p}/hitl`, { question: 'Anyone?', session_id: s.id });
    expect(q.status).toBe(201);
    expect((await http.post(`/projects/${p}/notify/test`)).body.url).toBe('refused');
    await sleep(1000);
    expect(hook.requests).toHaveLength(0);
  });

  test("another tenant's project settings answer 404", async () => {
    const a = (await tenantClient(testApp, 'n-a')).http;
    const b = (await tenantClient(testApp, 'n-b')).http;
    const pb = (await b.post('/projects', { name: 'B' })).body.id;
    expect((await a.get(`/projects/${pb}/ntfy`)).status).toBe(404);
    expect((await a.patch(`/projects/${pb}/ntfy`, { notify_email: 'x@example.test' })).status).toBe(404);
    expect((await a.post(`/projects/${pb}/notify/test`)).status).toBe(404);
  });
});

describe('the address check', () => {
  test('refuses internal addresses of both families and accepts public ones', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.1',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      'ff02::1',
      'nonsense',
    ]) {
      expect([a, classifyAddress(a) === 'public']).toEqual([a, false]);
    }
    for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect([a, classifyAddress(a) === 'public']).toEqual([a, true]);
  });
});
