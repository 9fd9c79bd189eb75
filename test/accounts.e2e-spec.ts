import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import { WS_UNAUTHORIZED } from '../src/modules/realtime/realtime.gateway';
import { freshEmail, signIn, signedCookieValue } from './support/accounts';
import { dashboardSocket } from './support/dashboard-socket';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/** Accounts, workspaces and web sessions of people who sign in to a hosted Baton. */
describePostgres('accounts, workspaces and web sessions', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '2' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('anonymous: /me is {}, the account routes ask to sign in, project routes ask for a credential', async () => {
    const http = new Http(testApp.url);
    expect(await http.get('/me')).toMatchObject({ status: 200, body: {} });
    const sessions = await http.get('/account/sessions');
    expect(sessions.status).toBe(401);
    expect(sessions.body.detail).toMatch(/sign in first/);
    expect((await http.get('/me/workspaces')).status).toBe(401);
    expect((await http.get('/projects')).status).toBe(401);
  });

  test('the first sign-in creates the account and a workspace it owns; a later one, by another provider of the address, finds them', async () => {
    const email = freshEmail('ada');
    const first = await signIn(testApp, email, { name: 'Ada' });
    const me = await first.http.get('/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      plan: 'free',
      account: { id: first.accountId, email, name: 'Ada' },
      workspace: { id: first.tenantId, name: "Ada's workspace", role: 'owner', plan: 'free' },
    });
    const again = await signIn(testApp, email.toUpperCase(), { provider: 'idpa', subject: 'idpa-123' });
    expect(again).toMatchObject({ accountId: first.accountId, tenantId: first.tenantId });
    expect(await db.query('SELECT provider FROM control.account_identities WHERE account_id = $1 ORDER BY provider', [first.accountId])).toEqual([
      { provider: 'idpa' },
      { provider: 'magic' },
    ]);
    expect(await db.query('SELECT role, status FROM control.memberships WHERE account_id = $1', [first.accountId])).toEqual([{ role: 'owner', status: 'active' }]);
    expect((await first.http.get('/me/workspaces')).body).toEqual([{ id: first.tenantId, name: "Ada's workspace", role: 'owner', plan: 'free', current: true }]);
  });

  test('the cookie reads and writes project data of the current workspace; a change needs Baton’s own Origin', async () => {
    const person = await signIn(testApp, freshEmail());
    const created = await person.http.post('/projects', { name: 'Signed-in project' });
    expect(created.status).toBe(201);
    expect((await person.http.get('/projects')).body.map((p: { name: string }) => p.name)).toEqual(['Signed-in project']);
    const auth = await person.http.get('/auth/me');
    expect(auth.body).toMatchObject({ workspace: { id: person.tenantId }, projects: [{ name: 'Signed-in project' }] });

    const noOrigin = new Http(testApp.url).withHeaders({ cookie: person.cookie });
    const foreign = noOrigin.withHeaders({ origin: 'https://evil.example' });
    for (const client of [noOrigin, foreign]) {
      const refused = await client.post('/projects', { name: 'Forged' });
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/Baton's own pages/);
    }
    expect((await noOrigin.get('/projects')).status).toBe(200); // reading needs no Origin
    expect((await person.http.get('/projects')).body).toHaveLength(1);
  });

  test('a tampered, unsigned or unknown cookie signs no one in', async () => {
    const person = await signIn(testApp, freshEmail());
    const [name, value] = person.cookie.split('=');
    const raw = decodeURIComponent(value).slice(2).split('.')[0];
    for (const cookie of [
      `${name}=${encodeURIComponent(raw)}`,
      `${name}=${encodeURIComponent(signedCookieValue(raw, 'another-secret-of-some-length'))}`,
      `${name}=${encodeURIComponent(signedCookieValue('made-up', testApp.config.sessionSecret))}`,
    ]) {
      const http = new Http(testApp.url).withHeaders({ cookie, origin: testApp.url });
      expect((await http.get('/projects')).status).toBe(401);
      expect(await http.get('/me')).toMatchObject({ status: 200, body: {} });
    }
  });

  test('a person switches between the workspaces they belong to, and only those', async () => {
    const alice = await signIn(testApp, freshEmail('alice'));
    const bob = await signIn(testApp, freshEmail('bob'));
    await bob.http.post('/projects', { name: "Bob's project" });
    await db.query(
      "INSERT INTO control.memberships (id, tenant_id, account_id, email, role, status, created_at, joined_at) VALUES ($1, $2, $3, 'alice@x.test', 'member', 'active', now(), now())",
      [randomUUID(), bob.tenantId, alice.accountId],
    );
    expect((await alice.http.get('/me/workspaces')).body.map((w: { id: string; current: boolean }) => [w.id, w.current])).toEqual([
      [alice.tenantId, true],
      [bob.tenantId, false],
    ]);
    const switched = await alice.http.post('/me/workspace', { workspace_id: bob.tenantId });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ id: bob.tenantId, role: 'member', current: true });
    expect((await alice.http.get('/projects')).body.map((p: { name: string }) => p.name)).toEqual(["Bob's project"]);

    const stranger = await signIn(testApp, freshEmail('stranger'));
    const refused = await stranger.http.post('/me/workspace', { workspace_id: bob.tenantId });
    expect(refused.status).toBe(404);
    expect((await stranger.http.post('/me/workspace', { workspace_id: 'bob' })).body.detail).toBe('workspace_id must be a UUID');

    // Removed from the workspace: the session no longer reaches it.
    await db.query('DELETE FROM control.memberships WHERE tenant_id = $1 AND account_id = $2', [bob.tenantId, alice.accountId]);
    await waitUntil(async () => (await alice.http.get('/projects')).status === 403, 5000, 'the removed member to be refused');
    expect((await alice.http.get('/projects')).body.detail).toMatch(/belong to no workspace/);
  });

  test('web sessions are listed and revoked one by one; logout ends this one and clears the cookie', async () => {
    const email = freshEmail();
    const laptop = await signIn(testApp, email);
    const phone = await signIn(testApp, email);
    const listed = await laptop.http.get('/account/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(2);
    expect(listed.body.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(decodeURIComponent(phone.cookie.split('=')[1]).slice(2, 30));
    const phoneSession = listed.body.find((s: { current: boolean }) => !s.current);
    expect((await laptop.http.post(`/account/sessions/${phoneSession.id}/revoke`)).status).toBe(204);
    await waitUntil(async () => (await phone.http.get('/projects')).status === 401, 5000, 'the revoked session to be refused');
    expect((await laptop.http.post(`/account/sessions/${randomUUID()}/revoke`)).status).toBe(404);

    const out = await laptop.http.get('/auth/logout');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/');
    expect(out.headers.get('set-cookie')).toMatch(/^baton_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await laptop.http.get('/projects')).status).toBe(401);
  });

  test('a revoked web session is refused by a second server process within the cache time', async () => {
    const other = await startApp(hostedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '2' }));
    try {
      const person = await signIn(testApp, freshEmail());
      const there = new Http(other.url).withHeaders({ cookie: person.cookie, origin: other.url });
      expect((await there.get('/projects')).status).toBe(200);
      const [session] = (await person.http.get('/account/sessions')).body;
      await person.http.post(`/account/sessions/${session.id}/revoke`);
      const revokedAt = Date.now();
      await waitUntil(async () => (await there.get('/projects')).status === 401, 6000, 'the other process to refuse the session');
      expect(Date.now() - revokedAt).toBeLessThan(4000);
    } finally {
      await other.close();
    }
  });

  test("the dashboard WebSocket opens with the cookie from Baton's own pages, and hears the current workspace only", async () => {
    const person = await signIn(testApp, freshEmail());
    const other = await signIn(testApp, freshEmail());
    const { ws, frames } = await dashboardSocket(testApp.url, undefined, { cookie: person.cookie, origin: testApp.url });
    try {
      const elsewhere = await other.http.post('/projects', { name: 'Elsewhere' });
      const mine = await person.http.post('/projects', { name: 'Mine at first' });
      await other.http.post(`/projects/${elsewhere.body.id}/rename`, { name: 'Elsewhere renamed' });
      await person.http.post(`/projects/${mine.body.id}/rename`, { name: 'Mine' });
      await waitUntil(() => frames.some((f) => f.event === 'project_renamed' && f.data.name === 'Mine'), 5000, 'the event of the own workspace');
      expect(frames.some((f) => f.data?.name === 'Elsewhere renamed')).toBe(false);
    } finally {
      ws.close();
    }
    const forged = new WebSocket(testApp.url.replace('http', 'ws') + '/ws', { headers: { cookie: person.cookie, origin: 'https://evil.example' } });
    const closed = await new Promise<number>((resolve) => forged.on('close', (code) => resolve(code)));
    expect(closed).toBe(WS_UNAUTHORIZED);
  });

  test('the database holds no session secret, only its hash', async () => {
    const person = await signIn(testApp, freshEmail());
    const secret = decodeURIComponent(person.cookie.split('=')[1]).slice(2).split('.')[0];
    const rows = await db.query<{ row: string }>('SELECT row_to_json(s)::text AS row FROM control.web_sessions s');
    expect(rows.length).toBeGreaterThan(0);
    for (const { row } of rows) expect(row).not.toContain(secret);
  });
});

describe('accounts on a self-hosted instance', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp();
  });
  afterAll(() => testApp?.close());

  test('/me is {}, /me/workspaces is empty and the account routes do not exist', async () => {
    const http = new Http(testApp.url);
    expect(await http.get('/me')).toMatchObject({ status: 200, body: {} });
    expect(await http.get('/me/workspaces')).toMatchObject({ status: 200, body: [] });
    const sessions = await http.get('/account/sessions');
    expect(sessions.status).toBe(404);
    expect(sessions.body.detail).toMatch(/only available in hosted mode/);
  });
});
