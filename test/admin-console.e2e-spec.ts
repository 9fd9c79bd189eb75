import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminOps } from '../src/modules/admin/admin-ops.service';
import { freshEmail, signIn } from './support/accounts';
import { ADMIN_PASSWORD, adminClient, adminHeaders } from './support/admin';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { createProject } from './support/projects';
import { seedToolCalls } from './support/ai-log-seed';
import { waitUntil } from './support/wait';
import Redis from 'ioredis';
import { budgetCountKey, monthOf } from '../libs/pubsub';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

/** Every admin route, as [method, path]; each must refuse anyone who is not an admin. */
const ADMIN_ROUTES: [string, string][] = [
  ['GET', '/admin'],
  ['GET', '/admin/health'],
  ['GET', '/admin/git-status'],
  ['GET', '/admin/stats'],
  ['GET', '/admin/waitlist'],
  ['DELETE', '/admin/waitlist/00000000-0000-4000-8000-000000000000'],
  ['GET', '/admin/feedback'],
  ['GET', '/admin/audit'],
  ['GET', '/admin/blog'],
  ['POST', '/admin/blog'],
  ['GET', '/admin/snapshot'],
  ['GET', '/admin/__error_test'],
  ['POST', '/admin/restart'],
  ['POST', '/admin/shutdown'],
  ['GET', '/api/admin/changelog-entries'],
  ['POST', '/api/admin/changelog-entries'],
  ['POST', '/admin/console/blog'],
];

describe.each(eachBackend())('the admin console on %s', (name, backend) => {
  let run: RunningBackend;
  let admin: Http;
  let cookie: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD, SERVICE_ADMIN_EMAILS: 'boss@example.test' });
    admin = await adminClient(run.testApp);
    cookie = (await adminHeaders(run.testApp)).cookie;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('every admin route is 401 without an admin, for a workspace credential too, and changes nothing', async () => {
    const anonymous = new Http(run.testApp.url).withHeaders({ origin: run.testApp.url });
    for (const [method, path] of ADMIN_ROUTES) {
      const res = await anonymous.send(method, path, method === 'GET' ? undefined : { title: 't', body: 'b', slug: 's' });
      expect([method, path, res.status, typeof res.body?.detail]).toEqual([method, path, 401, 'string']);
      if (run.token) expect([path, (await run.http.send(method, path)).status]).toEqual([path, 401]);
    }
    expect((await admin.get('/admin/blog')).body.posts).toEqual([]);
  });

  test('GET /admin is the console: health, figures, the waitlist with a delete button per entry, the editing forms', async () => {
    await new Http(run.testApp.url).post('/waitlist', { email: 'carla@example.test', note: 'please' });
    const res = await admin.get('/admin');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).not.toContain('<script');
    // A browser sends `Origin: null` with a form under no-referrer, and the guard would refuse every button.
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    for (const heading of ['Health', 'Waitlist (1)', 'Blog', 'Changelog', 'Feedback', 'Admin actions']) expect(res.text).toContain(heading);
    expect(res.text).toContain('carla@example.test');
    expect(res.text).toMatch(/<form class="inline" method="post" action="\/admin\/console\/waitlist\/[0-9a-f-]{36}\/delete">/);
    expect(res.text).toContain('action="/admin/console/blog"');
    expect(res.text).toContain('action="/admin/console/changelog"');
  });

  test("the console's forms work without JavaScript: a post from Baton's Origin acts and returns 303 to the console; another Origin is 403", async () => {
    const form = (origin: string, fields: Record<string, string>) => ({
      cookie,
      origin,
      'content-type': 'application/x-www-form-urlencoded',
      body: new URLSearchParams(fields),
    });
    const post = (path: string, headers: ReturnType<typeof form>) => {
      const { body, ...rest } = headers;
      return fetch(run.testApp.url + path, { method: 'POST', headers: rest, body, redirect: 'manual' });
    };
    const foreign = await post('/admin/console/blog', form('https://evil.example', { slug: 'evil', title: 'Evil', body: 'x' }));
    expect(foreign.status).toBe(403);
    const created = await post('/admin/console/blog', form(run.testApp.url, { slug: 'from-the-console', title: 'From the console', body: 'Hello', published: 'on' }));
    expect([created.status, created.headers.get('location')]).toEqual([303, '/admin#blog']);
    expect((await new Http(run.testApp.url).get('/api/blog-posts/from-the-console')).body).toMatchObject({ title: 'From the console', published: true });
    expect((await admin.get('/admin/blog')).body.posts.map((p: { slug: string }) => p.slug)).toEqual(['from-the-console']);

    const entry = (await admin.get('/admin/waitlist')).body.entries[0];
    const removed = await post(`/admin/console/waitlist/${entry.id}/delete`, form(run.testApp.url, {}));
    expect(removed.status).toBe(303);
    expect((await admin.get('/admin/waitlist')).body.entries).toEqual([]);
    const page = (await admin.get('/admin')).text;
    expect(page).toContain('waitlist.delete');
    expect(page).toContain('carla@example.test'); // in the audit trail now, no longer on the list
    expect(page).toContain('Waitlist (0)');
  });

  test('GET /admin/git-status reports the branch of the checkout Baton runs from', async () => {
    const res = await admin.get('/admin/git-status');
    expect(res.status).toBe(200);
    const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(res.body.branch).toBe(branch);
    // This checkout may have no upstream: then the figures are null and error says why; else both are counts.
    if (res.body.error === null) expect(res.body).toEqual({ branch, behind: expect.any(Number), ahead: expect.any(Number), error: null });
    else expect(res.body).toEqual({ branch, behind: null, ahead: null, error: expect.stringMatching(/upstream/) });
  });

  test('GET /admin/stats counts workspaces, active sessions and tool calls per day', async () => {
    const projectId = await createProject(run.http, `Stats ${name}`);
    expect((await run.http.post('/sessions/register', { project_id: projectId })).status).toBe(201);
    await seedToolCalls(run.testApp, run.token, projectId, 3);
    const stats = await waitUntil(
      async () => {
        const res = await admin.get('/admin/stats');
        return res.body.tool_calls_per_day?.at(-1)?.calls === 3 ? res.body : undefined;
      },
      5000,
      'three tool calls today',
    );
    expect(stats.tool_calls_per_day).toHaveLength(14);
    expect(stats.tool_calls_per_day.at(-1).day).toBe(new Date().toISOString().slice(0, 10));
    expect(stats.active_sessions).toBe(1);
    expect(stats.workspaces).toBeGreaterThanOrEqual(1);
    expect(stats.accounts === null).toBe(!run.token);
  });

  test('GET /admin/__error_test answers 500 with an error id, logged with the same id', async () => {
    const res = await admin.get('/admin/__error_test');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'internal error', error_id: expect.any(String) });
    const logged = run.testApp.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => e.error_id === res.body.error_id);
    expect(logged).toHaveLength(1);
    expect(logged[0].stack).toContain('admin error test');
  });

  test('POST /admin/restart and /admin/shutdown refuse with 409 in a process not started by Baton, and record the attempt', async () => {
    for (const path of ['/admin/restart', '/admin/shutdown']) {
      const res = await admin.post(path);
      expect([res.status, res.body.code]).toEqual([409, 'EXIT_UNAVAILABLE']);
    }
    expect((await admin.get('/admin/health')).status).toBe(200);
    const actions = (await admin.get('/admin/audit')).body.entries.map((a: { action: string }) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['restart', 'shutdown']));
  });

  test('GET /admin/snapshot: a consistent SQLite copy self-hosted; 409 on Postgres self-hosted; 404 hosted', async () => {
    await new Http(run.testApp.url).post('/waitlist', { email: 'snap@example.test' });
    const res = await fetch(`${run.testApp.url}/admin/snapshot`, { headers: { cookie } });
    if (name.startsWith('sqlite')) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="?baton-.*\.db"?/);
      const folder = mkdtempSync(join(tmpdir(), 'baton-snap-test-'));
      try {
        writeFileSync(join(folder, 's.db'), Buffer.from(await res.arrayBuffer()));
        const copy = new Database(join(folder, 's.db'), { readonly: true });
        expect(copy.prepare('SELECT email FROM site_waitlist').all()).toEqual([{ email: 'snap@example.test' }]);
        expect(copy.prepare('SELECT count(*) AS n FROM projects').get()).toEqual({ n: 1 });
        copy.close();
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    } else {
      expect(res.status).toBe(run.token ? 404 : 409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/Postgres/);
    }
  });
});

describe.each(hostedBackend())('admin identities on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_ADMIN_EMAILS: 'boss@example.test' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a signed-in person who is not an admin is 403 on every admin route; a listed address reads the console', async () => {
    const person = await signIn(run.testApp, freshEmail('member'));
    for (const [method, path] of ADMIN_ROUTES) expect([path, (await person.http.send(method, path)).status]).toEqual([path, 403]);
    const boss = await signIn(run.testApp, 'boss@example.test');
    expect((await boss.http.post('/api/admin/changelog-entries', { title: 'By the boss', body: 'b' })).status).toBe(201);
    const audit = (await boss.http.get('/admin/audit')).body.entries;
    expect(audit[0]).toMatchObject({ actor: 'boss@example.test', action: 'changelog.create', target: 'By the boss' });
    expect((await boss.http.get('/admin')).status).toBe(200);
  });
});

describe('git status of a checkout', () => {
  const git = (cwd: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.test', '-c', 'init.defaultBranch=main', ...args], { cwd, encoding: 'utf8' });

  test('counts the commits ahead of and behind the upstream last fetched', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-git-'));
    try {
      git(folder, 'init', '-q', 'origin');
      git(join(folder, 'origin'), 'commit', '-q', '--allow-empty', '-m', 'one');
      git(folder, 'clone', '-q', 'origin', 'checkout');
      git(join(folder, 'checkout'), 'commit', '-q', '--allow-empty', '-m', 'local');
      git(join(folder, 'origin'), 'commit', '-q', '--allow-empty', '-m', 'two');
      git(join(folder, 'origin'), 'commit', '-q', '--allow-empty', '-m', 'three');
      git(join(folder, 'checkout'), 'fetch', '-q');
      expect(await new AdminOps({} as never).gitStatus(join(folder, 'checkout'))).toEqual({ branch: 'main', ahead: 1, behind: 2, error: null });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test('outside a checkout: the reason in error, with no figures', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'baton-not-git-'));
    try {
      const status = await new AdminOps({} as never).gitStatus(folder);
      expect(status).toEqual({ branch: null, behind: null, ahead: null, error: expect.stringMatching(/not a git repository/) });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describeRedis('push budgets in the admin stats (hosted, Redis)', () => {
  const prefix = uniquePrefix('admin-stats');
  let db: TestDatabase;
  let testApp: TestApp;
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    db = await TestDatabase.create();
    testApp = await startApp(
      hostedEnv(db.url, {
        SERVICE_CACHE_URL: REDIS_URL,
        SERVICE_PUBSUB_PREFIX: prefix,
        SERVICE_PUSH_BUDGET_WARNING: '4',
        SERVICE_PUSH_BUDGET_DISABLE: '8',
        SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      }),
    );
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
    redis?.disconnect();
  });

  test("each workspace's push count this month with its tier, busiest first; quiet workspaces left out", async () => {
    const busy = await tenantClient(testApp, 'busy');
    const some = await tenantClient(testApp, 'some');
    await tenantClient(testApp, 'quiet');
    const month = monthOf(new Date());
    await redis.set(budgetCountKey(prefix, busy.tenant_id, month), '9');
    await redis.set(budgetCountKey(prefix, some.tenant_id, month), '5');
    const admin = await adminClient(testApp);
    const stats = (await admin.get('/admin/stats')).body;
    expect(stats.push_budget).toEqual([
      { tenant_id: busy.tenant_id, month, count: 9, tier: 'disabled' },
      { tenant_id: some.tenant_id, month, count: 5, tier: 'warning' },
    ]);
    expect((await admin.get('/admin')).text).toContain(`${busy.tenant_id}: 9 (disabled)`);
  });
});
