import { PLAN_ALLOWANCES, PLAN_USAGE_INCLUDED } from '../src/common/plans';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const HTML = { accept: 'text/html' };

describe.each(eachBackend())('public pages, badges and setup on %s', (_name, backend) => {
  let run: RunningBackend;
  let anonymous: Http;
  const hosted = () => run.testApp.config.isHosted;

  beforeAll(async () => {
    run = await backend.start();
    anonymous = new Http(run.testApp.url);
  });
  afterAll(() => run?.stop());

  async function page(path: string) {
    const res = await anonymous.get(path, HTML);
    expect([path, res.status]).toEqual([path, 200]);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    return res.text;
  }

  test('every public page answers HTML without credentials, in the shared layout', async () => {
    const titles: Record<string, RegExp> = {
      '/': /<h1>The live state of your software projects/,
      '/pricing': /<h1>Pricing<\/h1>/,
      '/terms': /<h1>Terms of service<\/h1>/,
      '/privacy': /<h1>Privacy<\/h1>/,
      '/changelog': /<h1>Changelog<\/h1>/,
      '/blog': /<h1>Blog<\/h1>/,
      '/blog/why-baton': /<h1>Why Baton<\/h1>/,
      '/waitlist-pending': /<h1>You are on the waiting list<\/h1>/,
      '/onboarding': /<h1>Connect your assistant<\/h1>/,
      '/setup': /<h1>Setup<\/h1>/,
      '/demo': /<h1>Demo project: acme-billing<\/h1>/,
    };
    for (const [path, title] of Object.entries(titles)) {
      const text = await page(path);
      expect([path, title.test(text)]).toEqual([path, true]);
      expect(text).toContain('<nav aria-label="Site">');
      expect(text).toContain('<a href="/terms">Terms</a>');
    }
  });

  test('/ shows the board screenshot, which is served as a PNG', async () => {
    expect(await page('/')).toContain('<img src="/static/board.png"');
    const png = await fetch(`${run.testApp.url}/static/board.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  test('/pricing shows free at $0 and paid at $20 a month with what each allows, from the plans Baton enforces', async () => {
    const text = await page('/pricing');
    expect(text).toMatch(/Free<\/h2>\n<p><strong[^>]*>\$0<\/strong> forever/);
    expect(text).toMatch(/Paid<\/h2>\n<p><strong[^>]*>\$20<\/strong> a month/);
    expect(text).toContain(`Up to ${PLAN_ALLOWANCES.free.maxRegisteredMachines} registered machines`);
    expect(text).toContain(`Up to ${PLAN_ALLOWANCES.paid.maxRegisteredMachines} registered machines`);
    expect(text).toContain('Messages delivered by polling (no push)');
    expect(text).toContain(`${PLAN_USAGE_INCLUDED.free.toolCalls.toLocaleString('en')} tool calls`);
    // No checkout is configured here: no upgrade button.
    expect(text).not.toContain('Upgrade your workspace');
  });

  test('/blog lists the posts newest first; an unknown or malformed slug is 404 {detail}', async () => {
    const text = await page('/blog');
    expect(text.indexOf('/blog/self-hosting')).toBeGreaterThan(0);
    expect(text.indexOf('/blog/self-hosting')).toBeLessThan(text.indexOf('/blog/why-baton'));
    for (const slug of ['no-such-post', 'Why-Baton', '..%2Fterms', '%3Cscript%3E']) {
      const res = await anonymous.get(`/blog/${slug}`);
      expect([slug, res.status]).toEqual([slug, 404]);
      expect(res.body.detail).toMatch(/^no blog post named /);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    }
    const browser = await anonymous.get('/blog/no-such-post', HTML);
    expect(browser.status).toBe(404);
    expect(browser.text).toContain('<h1>Not found</h1>');
  });

  test("/onboarding gives the MCP and hook set-up for this instance's own address", async () => {
    const text = await page('/onboarding');
    const base = hosted() ? 'http://127.0.0.1' : run.testApp.url;
    expect(text).toContain(`&#34;url&#34;: &#34;${base}/mcp&#34;`);
    expect(text).toContain(`\${BATON_URL:-${base}}/hooks/session-start`);
    expect(text).toContain('<script src="/static/onboarding.js" defer></script>');
    expect(text).toContain('id="first-session"');
    if (hosted()) {
      expect(text).toContain('<a href="/auth/install">create a token</a>');
      expect(text).toContain('Bearer sk_service_YOUR_TOKEN');
    } else expect(text).not.toContain('Authorization');
    expect(run.testApp.config.isHosted || !text.includes('BATON_TOKEN')).toBe(true);
    const script = await fetch(`${run.testApp.url}/static/onboarding.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("'session_started'");
    expect((await anonymous.get('/static/nothing.js')).status).toBe(404);
  });

  test('badges are SVG with a short cache: the server is up, the tool count is what tools/list holds', async () => {
    for (const path of ['/status/server', '/status/sessions', '/status/tools']) {
      const res = await anonymous.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[^>]* role="img" aria-label="[^"]+"/);
    }
    expect((await anonymous.get('/status/server')).text).toContain('aria-label="baton: up"');
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'all');
    const { tools } = await client.listTools();
    await client.close();
    expect((await anonymous.get('/status/tools')).text).toContain(`aria-label="MCP tools: ${tools.length}"`);
  });

  test('/status/sessions counts the active sessions; /setup/needed turns false once a project exists (self-hosted)', async () => {
    if (!hosted()) {
      expect((await anonymous.get('/setup/needed')).body).toEqual({ needed: true, missing: [expect.stringMatching(/^a first project/)] });
      expect(await page('/setup')).toContain('Still needed:');
    }
    const before = (await anonymous.get('/status/sessions')).text;
    const projectId = await createProject(run.http, 'pages');
    const ids: string[] = [];
    for (const name of ['one', 'two']) {
      const res = await run.http.post('/sessions/register', { project_id: projectId, name });
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // Counted before (and so cached): a session starting or closing is seen at once all the same.
    expect(before).toContain('aria-label="active sessions: 0"');
    expect((await anonymous.get('/status/sessions')).text).toContain('aria-label="active sessions: 2"');
    expect((await run.http.post(`/sessions/${ids[0]}/close`)).status).toBe(200);
    expect((await anonymous.get('/status/sessions')).text).toContain('aria-label="active sessions: 1"');
    if (!hosted()) {
      const res = await anonymous.get('/setup/needed');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.body).toEqual({ needed: false, missing: [] });
      expect(await page('/setup')).toContain('Nothing left to set up.');
    }
  });

  test("/status/sessions (hosted) counts every workspace's sessions and tells none apart", async () => {
    if (!hosted()) return;
    const before = Number(/active sessions: (\d+)/.exec((await anonymous.get('/status/sessions')).text)![1]);
    const other = await tenantClient(run.testApp, 'tenant-b');
    const projectId = await createProject(other.http, 'pages-b');
    expect((await other.http.post('/sessions/register', { project_id: projectId, name: 'b-one' })).status).toBe(201);
    const after = (await anonymous.get('/status/sessions')).text;
    expect(after).toContain(`aria-label="active sessions: ${before + 1}"`);
    expect(after).not.toMatch(/tenant|pages-b|b-one/);
  });

  test('/setup/needed (hosted) names the production settings still missing', async () => {
    const res = await anonymous.get('/setup/needed');
    expect(res.status).toBe(200);
    if (!hosted()) return expect(typeof res.body.needed).toBe('boolean');
    // hostedEnv sets APP_URL but no session secret and no way to sign in.
    expect(res.body.needed).toBe(true);
    expect(res.body.missing).toEqual([expect.stringMatching(/^SESSION_SECRET/), expect.stringMatching(/^a way to sign in/)]);
  });

  test('/setup/health answers the deep health with mode, database and address', async () => {
    const res = await anonymous.get('/setup/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      mode: run.testApp.config.mode,
      database: run.testApp.config.databaseType,
      base_url: hosted() ? 'http://127.0.0.1' : run.testApp.url,
      components: { database: { status: 'ok' } },
    });
  });

  test('/demo is read-only: no method but GET reaches it, and it shows the same board afterwards', async () => {
    const before = await page('/demo');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await run.http.send(method, '/demo', { name: 'changed' });
      expect([method, res.status]).toEqual([method, 404]);
      expect(res.body.detail).toEqual(expect.any(String));
    }
    expect(await page('/demo')).toBe(before);
    expect(before).toContain('Card payments at checkout');
    expect(before).not.toMatch(/<form|<script/);
  });
});

describe('the site gate and the public pages', () => {
  let gated: TestApp;
  beforeAll(async () => {
    gated = await startApp({ SITE_PASSWORD: 'open sesame' });
  });
  afterAll(() => gated?.close());

  test('/demo passes the gate with everything it needs; the other pages and badges do not', async () => {
    const demo = await fetch(`${gated.url}/demo`, { headers: HTML });
    expect(demo.status).toBe(200);
    const text = await demo.text();
    expect(text).toContain('<h1>Demo project: acme-billing</h1>');
    // The page needs nothing else from the instance: its style and icon are inline, it loads no script nor image.
    expect(text).not.toMatch(/<script|<img|<link rel="stylesheet"|src="\/|href="\/static/);
    for (const path of ['/', '/pricing', '/onboarding', '/setup', '/setup/needed', '/status/server', '/static/board.png']) {
      expect([path, (await fetch(`${gated.url}${path}`)).status]).toEqual([path, 401]);
    }
  });
});

describePostgres('setup of a hosted instance with what production needs', () => {
  let db: TestDatabase;
  let configured: TestApp;
  beforeAll(async () => {
    db = await TestDatabase.create();
    configured = await startApp(hostedEnv(db.url, { SESSION_SECRET: 'a-long-random-session-secret-for-this-test-0123456789', EMAIL_API_KEY: 're_test_key' }));
  });
  afterAll(async () => {
    await configured?.close();
    await db?.drop();
  });

  test('/setup/needed is false and /setup says nothing is left', async () => {
    const http = new Http(configured.url);
    expect((await http.get('/setup/needed')).body).toEqual({ needed: false, missing: [] });
    expect((await http.get('/setup', HTML)).text).toContain('Nothing left to set up.');
  });
});
