import { createHash } from 'node:crypto';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { createProject } from './support/projects';
import { describePostgres } from './support/suites';
import { waitUntil } from './support/wait';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

type Snapshot = Record<string, string[]>;

/** Every row of every control-plane table, each as JSON text. */
async function controlRows(db: TestDatabase): Promise<Snapshot> {
  const tables = await db.query<{ table_name: string }>("SELECT table_name FROM information_schema.tables WHERE table_schema = 'control' ORDER BY table_name");
  const snapshot: Snapshot = {};
  for (const { table_name } of tables) {
    const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM control."${table_name}" t`);
    snapshot[table_name] = rows.map((r) => r.row).sort();
  }
  return snapshot;
}

/** Deleting an account, and exporting its data, on a hosted Baton. */
describePostgres('account data export and deletion', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;

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

  /** Invites `email` into `by`'s workspace with `role` and has them accept. */
  async function join(by: SignedInClient, person: SignedInClient, email: string, role: string): Promise<void> {
    const lettersTo = () => mail.at('/emails').filter((r) => [r.body.to].flat().includes(email));
    const before = lettersTo().length;
    const invited = await by.http.post('/workspace/invite', { email, role });
    expect(invited.status).toBe(201);
    // Sent in the background: wait for this invitation's own letter.
    const letters = await waitUntil(() => lettersTo().length > before && lettersTo(), 5000, `the invitation e-mail to ${email}`);
    const token = /accept\?token=([A-Za-z0-9_-]+)/.exec(letters[letters.length - 1].body.text)![1];
    expect((await person.http.get(`/workspace/accept?token=${token}`)).status).toBe(303);
  }

  /** Back to the person's own workspace as their browser's current one. */
  async function actIn(person: SignedInClient, tenantId: string) {
    expect((await person.http.post('/me/workspace', { workspace_id: tenantId })).status).toBe(200);
  }

  /** A world of four accounts: Alice owns A alone, co-owns Carol's C, is a member of Dave's D; Bob owns B and is a member of A. */
  async function world() {
    const alice = await signIn(testApp, freshEmail('alice'), { name: 'Alice' });
    const bob = await signIn(testApp, freshEmail('bob'));
    const carol = await signIn(testApp, freshEmail('carol'));
    const dave = await signIn(testApp, freshEmail('dave'));
    const aliceEmail = (await alice.http.get('/me')).body.account.email as string;
    const bobEmail = (await bob.http.get('/me')).body.account.email as string;
    await join(alice, bob, bobEmail, 'member');
    await join(carol, alice, aliceEmail, 'owner');
    await join(dave, alice, aliceEmail, 'member');
    await actIn(alice, alice.tenantId);
    await actIn(bob, bob.tenantId);

    const marker = `alice-marker-${Date.now()}`;
    const projectId = await createProject(alice.http, marker);
    expect((await alice.http.post(`/projects/${projectId}/goal`, { content: `${marker} goal` })).status).toBe(200);
    expect((await alice.http.post(`/projects/${projectId}/notes`, { title: `${marker} note`, body: 'a note' })).status).toBe(201);
    expect((await alice.http.post(`/projects/${projectId}/decisions`, { title: `${marker} decision` })).status).toBe(201);
    const bobProject = await createProject(bob.http, 'bob-project');
    const tokens = testApp.app.get(ApiTokens);
    const aliceToken = await tokens.createToken(alice.tenantId, 'alice-in-a');
    const aliceTokenInC = await tokens.createToken(carol.tenantId, 'alice-in-c');
    const bobToken = await tokens.createToken(bob.tenantId, 'bob-in-b');
    for (const [token, account] of [
      [aliceToken, alice.accountId],
      [aliceTokenInC, alice.accountId],
      [bobToken, bob.accountId],
    ]) {
      await db.query('UPDATE control.api_tokens SET created_by = $1 WHERE token_hash = $2', [account, sha256(token)]);
    }
    // A repository connection of each (its token sealed at rest, as the code-host flow stores it).
    for (const [account, login] of [
      [alice.accountId, 'alice-gh'],
      [bob.accountId, 'bob-gh'],
    ]) {
      await db.query(
        "INSERT INTO control.codehost_connections (id, account_id, account_login, scopes, token_sealed, created_at, updated_at) VALUES (gen_random_uuid(), $1, $2, 'repo', $3, now(), now())",
        [account, login, `v1.sealed-${login}`],
      );
    }
    return { alice, bob, carol, dave, aliceEmail, marker, projectId, bobProject, aliceToken, aliceTokenInC, bobToken };
  }

  test('the export is one JSON attachment: the account, identities, memberships, sessions and token metadata, and the data of each workspace it owns, with no secret', async () => {
    const w = await world();
    const res = await w.alice.http.get('/export/my-data');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="?baton-export-\d{4}-\d{2}-\d{2}\.json"?$/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const data = res.body;
    expect(data).toMatchObject({ format: 'baton-account-export', version: 1, account: { id: w.alice.accountId, email: w.aliceEmail, name: 'Alice' } });
    expect(data.identities).toEqual([expect.objectContaining({ provider: 'magic', email: w.aliceEmail })]);
    expect(data.memberships.map((m: { workspace_id: string; role: string }) => [m.workspace_id, m.role]).sort()).toEqual(
      [
        [w.alice.tenantId, 'owner'],
        [w.carol.tenantId, 'owner'],
        [w.dave.tenantId, 'member'],
      ].sort(),
    );
    expect(data.web_sessions.length).toBeGreaterThanOrEqual(1);
    for (const s of data.web_sessions) expect(Object.keys(s).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_seen_at', 'provider', 'revoked_at', 'user_agent']);
    expect(data.api_tokens.map((t: { name: string }) => t.name).sort()).toEqual(['alice-in-a', 'alice-in-c']);
    expect(data.api_tokens[0]).not.toHaveProperty('token_hash');
    expect(data.codehost_connections).toEqual([{ account_login: 'alice-gh', scopes: 'repo', created_at: expect.any(String), updated_at: expect.any(String) }]);
    expect(res.text).not.toContain('sealed-alice-gh');
    // Owned workspaces only (A and the co-owned C), each with its project data.
    expect(data.workspaces.map((ws: { id: string }) => ws.id).sort()).toEqual([w.alice.tenantId, w.carol.tenantId].sort());
    const own = data.workspaces.find((ws: { id: string }) => ws.id === w.alice.tenantId);
    expect(own.data.projects).toEqual([expect.objectContaining({ id: w.projectId, name: expect.stringContaining(w.marker) })]);
    expect(own.data.goals).toEqual([expect.objectContaining({ project_id: w.projectId, content: `${w.marker} goal` })]);
    expect(own.data.notes).toEqual([expect.objectContaining({ title: `${w.marker} note` })]);
    expect(own.data.decisions).toEqual([expect.objectContaining({ title: `${w.marker} decision` })]);
    for (const kind of ['sprint_items', 'tasks', 'sessions', 'hitl_requests', 'messages', 'workspace_notes']) expect(own.data[kind]).toEqual([]);
    // Nothing secret, and nothing of Bob's workspace.
    const secrets = await db.query<{ secret_hash: string }>('SELECT secret_hash FROM control.web_sessions WHERE account_id = $1', [w.alice.accountId]);
    const cookieSecret = decodeURIComponent(w.alice.cookie.split('=')[1])
      .replace(/^s:/, '')
      .replace(/\.[^.]*$/, '');
    for (const secret of [w.aliceToken, sha256(w.aliceToken), w.aliceTokenInC, cookieSecret, ...secrets.map((s) => s.secret_hash)]) expect(res.text).not.toContain(secret);
    expect(res.text).not.toContain('bob-project');
    expect(res.text).not.toContain('bob-gh');
    expect(res.text).not.toMatch(/token_hash|secret_hash|db_url_sealed|invite_token_hash/);

    expect((await new Http(testApp.url).get('/export/my-data')).status).toBe(401);
  });

  test('deletion needs the word DELETE, a signed-in person and Baton’s own Origin; a refusal changes nothing', async () => {
    const person = await signIn(testApp, freshEmail('careful'));
    const before = await controlRows(db);
    for (const body of [{}, { confirmation: 'delete' }, { confirmation: 'DELETE ' }, { confirmation: true }]) {
      const res = await person.http.post('/account/delete', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^confirmation (is required|must be the word DELETE)$/);
    }
    const extra = await person.http.post('/account/delete', { confirmation: 'DELETE', also: 'this' });
    expect(extra.status).toBe(400);
    expect(extra.body.detail).toMatch(/also/);
    const noOrigin = await new Http(testApp.url).post('/account/delete', { confirmation: 'DELETE' }, { cookie: person.cookie });
    expect(noOrigin.status).toBe(403);
    const foreign = await new Http(testApp.url).post('/account/delete', { confirmation: 'DELETE' }, { cookie: person.cookie, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const anonymous = await new Http(testApp.url).post('/account/delete', { confirmation: 'DELETE' }, { origin: testApp.url });
    expect(anonymous.status).toBe(401);
    expect(await controlRows(db)).toEqual(before);
  });

  test('deleting an account removes it and every workspace it owns alone, leaves co-owned ones, and keeps every row of everyone else', async () => {
    const w = await world();
    const [schemaA] = await db.query<{ schema_name: string; role_name: string }>('SELECT schema_name, role_name FROM control.tenants WHERE id = $1', [w.alice.tenantId]);
    const before = await controlRows(db);

    const res = await w.alice.http.post('/account/delete', { confirmation: 'DELETE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'account deleted', deleted_workspaces: [w.alice.tenantId] });
    expect(res.headers.getSetCookie().some((c) => /^baton_session=;/.test(c))).toBe(true);

    // Nothing of Alice or of her workspace A is left in the control plane, and everything else is as it was.
    const mentions = (row: string) => row.includes(w.alice.accountId) || row.includes(w.alice.tenantId) || row.includes(w.aliceEmail) || row.includes(sha256(w.aliceTokenInC));
    const after = await controlRows(db);
    const expected = Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.filter((row) => !mentions(row))]));
    expect(after).toEqual(expected);
    // A's schema and role are dropped; the other workspaces keep theirs.
    expect(await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schemaA.schema_name])).toEqual([]);
    expect(await db.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [schemaA.role_name])).toEqual([]);
    const kept = await db.query<{ id: string }>("SELECT t.id FROM control.tenants t JOIN pg_namespace n ON n.nspname = t.schema_name WHERE t.status = 'active'");
    expect(kept.map((k) => k.id)).toEqual(expect.arrayContaining([w.bob.tenantId, w.carol.tenantId, w.dave.tenantId]));

    // What people see: Alice is signed out and her tokens are dead; Bob keeps his workspace and data; Carol and Dave keep theirs.
    expect((await w.alice.http.get('/me')).body).toEqual({});
    expect((await new Http(testApp.url, w.aliceToken).get('/projects')).status).toBe(401);
    expect((await new Http(testApp.url, w.aliceTokenInC).get('/projects')).status).toBe(401);
    expect((await w.bob.http.get('/projects')).body.map((p: { id: string }) => p.id)).toEqual([w.bobProject]);
    expect((await new Http(testApp.url, w.bobToken).get('/projects')).status).toBe(200);
    expect((await w.bob.http.get('/me/workspaces')).body.map((x: { id: string }) => x.id)).toEqual([w.bob.tenantId]);
    const carolMembers = (await w.carol.http.get('/workspace/members')).body;
    expect(carolMembers.map((m: { email: string }) => m.email)).not.toContain(w.aliceEmail);
    expect(carolMembers.filter((m: { role: string }) => m.role === 'owner')).toHaveLength(1);
    expect((await w.dave.http.get('/workspace/members')).status).toBe(200);
  });

  test('two co-owners deleting their accounts at once do not leave their workspace behind without an owner', async () => {
    const x = await signIn(testApp, freshEmail('x'));
    const y = await signIn(testApp, freshEmail('y'));
    const yEmail = (await y.http.get('/me')).body.account.email;
    await join(x, y, yEmail, 'owner');
    const [shared] = await db.query<{ schema_name: string }>('SELECT schema_name FROM control.tenants WHERE id = $1', [x.tenantId]);
    const answers = await Promise.all([x, y].map((p) => p.http.post('/account/delete', { confirmation: 'DELETE' })));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(answers.flatMap((a) => a.body.deleted_workspaces).sort()).toEqual([x.tenantId, y.tenantId].sort());
    expect(await db.query('SELECT 1 FROM control.tenants WHERE id = ANY($1::uuid[])', [[x.tenantId, y.tenantId]])).toEqual([]);
    expect(await db.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [shared.schema_name])).toEqual([]);
  });
});

describe('account routes, self-hosted', () => {
  test('they answer 404: a self-hosted Baton has no accounts', async () => {
    const testApp = await startApp({});
    try {
      const http = new Http(testApp.url);
      expect((await http.post('/account/delete', { confirmation: 'DELETE' })).status).toBe(404);
      expect((await http.get('/export/my-data')).status).toBe(404);
    } finally {
      await testApp.close();
    }
  });
});
