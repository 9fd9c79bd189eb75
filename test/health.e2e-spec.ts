import { randomBytes } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const GIT_SHA = /^[0-9a-f]{12}$/;
/** A port nothing listens on: connections are refused at once. */
const CLOSED_CACHE_URL = 'redis://baton:cache-pw-Vq83Zt@127.0.0.1:1/0';

describe.each(eachBackend())('health on %s', (_name, backend) => {
  let run: RunningBackend;
  let anonymous: Http;

  beforeAll(async () => {
    run = await backend.start();
    anonymous = new Http(run.testApp.url);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('GET /health answers 200 {status, service, version, git_sha} without credentials', async () => {
    const res = await anonymous.get('/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      service: expect.any(String),
      version: run.testApp.config.version,
      git_sha: expect.stringMatching(GIT_SHA),
    });
    expect(res.body.service).not.toBe('');
    expect(res.body.git_sha).toBe(run.testApp.config.gitSha);
  });

  test('GET /health ignores a bad bearer token instead of refusing it', async () => {
    const res = await anonymous.withToken('sk_service_not-a-real-token').get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  test('GET /health/deep answers 200 with the database component ok', async () => {
    const res = await anonymous.get('/health/deep');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      version: run.testApp.config.version,
      git_sha: expect.stringMatching(GIT_SHA),
      components: { database: { status: 'ok', latency_ms: expect.any(Number) } },
    });
    // No cache configured: nothing is reported about one.
    expect(res.body.components.cache).toBeUndefined();
  });

  test('GET /config answers without credentials and reports the mode and database', async () => {
    const res = await anonymous.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: run.testApp.config.mode,
      database: run.testApp.config.databaseType,
      version: run.testApp.config.version,
      git_sha: run.testApp.config.gitSha,
      cache_configured: false,
      email_configured: false,
      billing_configured: false,
    });
    if (run.testApp.config.dbUrl) expect(res.text).not.toContain(run.testApp.config.dbUrl);
    expect(res.text).not.toContain(run.testApp.config.sessionSecret);
  });
});

describe('health with SERVICE_VERSION and SERVICE_GIT_SHA set', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_VERSION: '7.8.9-rc.1', SERVICE_GIT_SHA: 'ABCDEF0123456789ABCDEF0123456789ABCDEF01' });
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('GET /health reports them, the sha cut to 12 lower-case characters', async () => {
    const res = await new Http(testApp.url).get('/health');
    expect(res.body).toMatchObject({ status: 'ok', version: '7.8.9-rc.1', git_sha: 'abcdef012345' });
  });
});

describe('health with an unreachable cache (sqlite)', () => {
  let testApp: TestApp;
  let http: Http;

  beforeAll(async () => {
    testApp = await startApp({ SERVICE_CACHE_URL: CLOSED_CACHE_URL, SERVICE_LOG_LEVEL: 'debug' });
    http = new Http(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('GET /health/deep answers 503 with the cache down and the database ok', async () => {
    const res = await http.get('/health/deep');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      status: expect.not.stringMatching(/^ok$/),
      components: { database: { status: 'ok' }, cache: { status: 'down', latency_ms: expect.any(Number) } },
    });
  });

  test('neither the deep probe nor the logs contain the cache URL or its password', async () => {
    const res = await http.get('/health/deep');
    for (const secret of [CLOSED_CACHE_URL, 'cache-pw-Vq83Zt', '127.0.0.1:1/']) expect(res.text).not.toContain(secret);
    const leaking = testApp.logs.filter((line) => line.includes(CLOSED_CACHE_URL) || line.includes('cache-pw-Vq83Zt'));
    expect(leaking).toEqual([]);
  });

  test('GET /health stays 200: liveness does not depend on the cache', async () => {
    const res = await http.get('/health');
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('ok');
  });

  test('GET /config reports the cache as configured without showing its URL', async () => {
    const res = await http.get('/config');
    expect(res.status).toBe(200);
    expect(res.body.cache_configured).toBe(true);
    expect(res.text).not.toContain('cache-pw-Vq83Zt');
    expect(res.text).not.toContain('redis://');
  });

  test('project routes keep working while the cache is down', async () => {
    expect((await http.post('/projects', { name: 'Cacheless' })).status).toBe(201);
    expect((await http.get('/projects')).status).toBe(200);
  });
});

describePostgres('GET /config on a hosted instance', () => {
  const secrets = {
    SESSION_SECRET: `session-secret-${randomBytes(8).toString('hex')}`,
    EMAIL_API_KEY: `email-key-${randomBytes(8).toString('hex')}`,
    BILLING_SECRET_KEY: `billing-key-${randomBytes(8).toString('hex')}`,
    BILLING_WEBHOOK_SECRET: `billing-hook-${randomBytes(8).toString('hex')}`,
  };
  let db: TestDatabase;
  let dbUrl: string;
  let testApp: TestApp;
  let anonymous: Http;

  beforeAll(async () => {
    db = await TestDatabase.create();
    dbUrl = db.url;
    testApp = await startApp(hostedEnv(dbUrl, { ...secrets, SERVICE_CACHE_URL: CLOSED_CACHE_URL }));
    anonymous = new Http(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('answers without credentials: mode hosted, database postgres, cache/e-mail/billing configured', async () => {
    const res = await anonymous.get('/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      mode: 'hosted',
      database: 'postgres',
      cache_configured: true,
      email_configured: true,
      billing_configured: true,
      git_sha: expect.stringMatching(GIT_SHA),
    });
  });

  test('contains none of the secret values, the database URL or the cache URL', async () => {
    const res = await anonymous.get('/config');
    for (const [name, value] of [...Object.entries(secrets), ['SERVICE_DB_URL', dbUrl], ['SERVICE_CACHE_URL', CLOSED_CACHE_URL]]) {
      expect({ name, leaked: res.text.includes(value) }).toEqual({ name, leaked: false });
    }
    expect(res.text).not.toContain(db.name);
    expect(res.text).not.toContain('cache-pw-Vq83Zt');
  });

  test('GET /health and GET /health/deep need no credentials in hosted mode either', async () => {
    const live = await anonymous.get('/health');
    expect(live.status).toBe(200);
    expect(live.body.git_sha).toMatch(GIT_SHA);
    const deep = await anonymous.get('/health/deep');
    // The cache is down, so the deep probe is 503; the database part must still be ok.
    expect(deep.status).toBe(503);
    expect(deep.body.components.database.status).toBe('ok');
    expect(deep.body.components.cache.status).toBe('down');
  });

  test('a project route without credentials is refused, so /config being open is a choice, not a gap', async () => {
    expect((await anonymous.get('/projects')).status).toBe(401);
  });

  test('no log line contains a secret value or the database URL', async () => {
    const values = [...Object.values(secrets), dbUrl, CLOSED_CACHE_URL, 'cache-pw-Vq83Zt'];
    const leaking = testApp.logs.filter((line) => values.some((v) => line.includes(v)));
    expect(leaking).toEqual([]);
  });
});
