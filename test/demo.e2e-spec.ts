import { DEMO_PROJECT_ID, DemoStore } from '../src/modules/pages/demo-store.service';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { startApp, TestApp } from './support/test-app';

/** `name=value` of the demo cookie a POST /demo-auth answer sets. */
function demoCookie(res: { headers: Headers }): string {
  const set = res.headers.get('set-cookie') ?? '';
  const match = /(baton_demo=[^;]+)/.exec(set);
  if (!match) throw new Error(`no demo cookie in ${set}`);
  return match[1];
}

/** The demo project: stored apart from every workspace, seeded at start, read-only, reached by the demo cookie and nothing else. */
describe.each(eachBackend())('the demo on %s', (name, backend) => {
  const hosted = name.includes('hosted') && !name.includes('self-hosted');
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(() => run?.stop());

  test('/demo shows the stored demo project; seeding it again adds nothing', async () => {
    const page = await fetch(`${run.testApp.url}/demo`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Demo project: acme-billing');
    expect(html).toContain('Card payments at checkout');
    expect(html).toContain('claimed by claude-checkout');
    expect(html).toContain('Should a declined card keep the invoice open, or mark it failed?');
    const store = run.testApp.app.get(DemoStore);
    const before = await store.counts();
    expect(before).toMatchObject({ projects: 1, sprint_items: 6, sessions: 2, hitl_requests: 1, pinned_decisions: 2, goals: 1 });
    await store.seed();
    expect(await store.counts()).toEqual(before);
  });

  test('POST /demo-auth gives a read-only cookie for the demo project: reads work, every write is 403 DEMO_READ_ONLY, and without it 401', async () => {
    const anonymous = new Http(run.testApp.url);
    expect((await anonymous.get('/demo/api/project')).body).toMatchObject({ code: 'DEMO_AUTH_REQUIRED' });
    expect((await anonymous.get('/demo/api/project')).status).toBe(401);
    const auth = await anonymous.post('/demo-auth');
    expect(auth.status).toBe(200);
    expect(auth.body).toMatchObject({ project_id: DEMO_PROJECT_ID, expires_at: expect.any(String) });
    const setCookie = auth.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/Path=\/demo/);
    const demo = anonymous.withHeaders({ cookie: demoCookie(auth) });
    const project = await demo.get('/demo/api/project');
    expect(project.status).toBe(200);
    expect(project.body.project).toEqual({ id: DEMO_PROJECT_ID, name: 'acme-billing' });
    expect(project.body.items).toHaveLength(6);
    for (const [method, path, body] of [
      ['POST', '/demo/api/project', { name: 'mine now' }],
      ['PATCH', '/demo/api/project', { name: 'mine now' }],
      ['DELETE', '/demo/api/project', undefined],
      ['POST', '/demo/api/sprint-items', { title: 'x' }],
    ] as const) {
      const res = await demo.send(method, path, body);
      expect([method, path, res.status, res.body.code]).toEqual([method, path, 403, 'DEMO_READ_ONLY']);
    }
    expect((await demo.get('/demo/api/nothing-here')).status).toBe(404);
    expect((await anonymous.withHeaders({ cookie: 'baton_demo=4102444800.forged-forged-forged-forged-forged-forged-f' }).get('/demo/api/project')).status).toBe(401);
    expect((await run.testApp.app.get(DemoStore).counts()).projects).toBe(1);
  });

  test('the demo cookie reaches nothing outside the demo: not a workspace, not the demo project through the workspace routes', async () => {
    const auth = await new Http(run.testApp.url).post('/demo-auth');
    const demo = new Http(run.testApp.url).withHeaders({ cookie: demoCookie(auth) });
    const projects = await demo.get('/projects');
    const demoThere = await demo.get(`/projects/${DEMO_PROJECT_ID}`);
    if (hosted) {
      expect(projects.status).toBe(401);
      expect(demoThere.status).toBe(401);
    } else {
      // Self-hosted, the workspace needs no credential; the demo project is still not one of its projects.
      expect(projects.body.map((p: { id: string }) => p.id)).not.toContain(DEMO_PROJECT_ID);
      expect(demoThere.status).toBe(404);
    }
  });

  test('POST /demo-auth is rate-limited per address: 429 with Retry-After past ten a minute', async () => {
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 12 && last !== 429; i++) {
      const res = await new Http(run.testApp.url).post('/demo-auth');
      last = res.status;
      retryAfter = res.headers.get('retry-after');
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});

describe('the demo behind the site gate', () => {
  let gated: TestApp;
  beforeAll(async () => {
    gated = await startApp({ SITE_PASSWORD: 'open sesame' });
  });
  afterAll(() => gated?.close());

  test('POST /demo-auth and the demo API answer without the site password; the workspace still needs it', async () => {
    const http = new Http(gated.url);
    expect((await http.get('/projects')).status).toBe(401);
    const auth = await http.post('/demo-auth');
    expect(auth.status).toBe(200);
    const demo = http.withHeaders({ cookie: demoCookie(auth) });
    expect((await demo.get('/demo/api/project')).status).toBe(200);
    expect((await demo.post('/demo/api/project', {})).body.code).toBe('DEMO_READ_ONLY');
    expect((await demo.get('/projects')).body.code).toBe('SITE_PASSWORD_REQUIRED');
  });
});
