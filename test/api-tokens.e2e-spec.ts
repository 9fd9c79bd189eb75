import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { hashApiToken } from '../src/modules/tenants/api-token.util';
import { TokenUsage } from '../src/modules/tenants/token-usage.service';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

interface TokenRow {
  id: string;
  tenant_id: string;
  name: string;
  token_hash: string;
  token_prefix: string;
  scope: string;
  created_by: string | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

const TOKEN_FIELDS = ['created_at', 'created_by', 'expires_at', 'id', 'label', 'last_used_at', 'prefix', 'revoked', 'scope'];

describePostgres('API tokens (hosted)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let a: TenantClient;
  let b: TenantClient;

  const rows = (tenantId: string) => db.query<TokenRow>('SELECT * FROM control.api_tokens WHERE tenant_id = $1 ORDER BY created_at', [tenantId]);
  const rowOf = async (token: string) => (await db.query<TokenRow>('SELECT * FROM control.api_tokens WHERE token_hash = $1', [hashApiToken(token)]))[0];

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
    a = await tenantClient(testApp, 'Tenant A');
    b = await tenantClient(testApp, 'Tenant B');
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('a full-scope token creates a token: 201 with the value shown once, a hash and a prefix stored, and the new token works', async () => {
    const created = await a.http.post('/auth/tokens', { label: 'laptop' });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual([...TOKEN_FIELDS, 'token'].sort());
    expect(created.body).toMatchObject({ label: 'laptop', scope: 'full', revoked: false, expires_at: null, last_used_at: null, created_by: null });
    const token: string = created.body.token;
    expect(token).toMatch(/^sk_service_[0-9A-Za-z]{42}$/);
    expect(created.body.prefix).toBe(token.slice(0, 15));

    const row = await rowOf(token);
    expect(row).toMatchObject({ id: created.body.id, tenant_id: a.tenant_id, name: 'laptop', scope: 'full', token_prefix: token.slice(0, 15), revoked_at: null });
    expect(row.token_hash).toBe(hashApiToken(token));
    expect(JSON.stringify(row)).not.toContain(token.slice(15));

    expect((await new Http(testApp.url, token).post('/projects', { name: 'made with the new token' })).status).toBe(201);
    // Listed without its value, ever again.
    const listed = await a.http.get('/auth/tokens');
    expect(listed.status).toBe(200);
    expect(listed.text).not.toContain(token.slice(15));
    const entry = listed.body.find((t: { id: string }) => t.id === created.body.id);
    expect(Object.keys(entry).sort()).toEqual(TOKEN_FIELDS);
  });

  test("each workspace lists its own tokens only, and another workspace's token id is not found", async () => {
    const own = (await b.http.post('/auth/tokens', { label: 'b only' })).body;
    const listA = (await a.http.get('/auth/tokens')).body.map((t: { id: string }) => t.id);
    const listB = (await b.http.get('/auth/tokens')).body.map((t: { id: string }) => t.id);
    expect(listB).toContain(own.id);
    expect(listA).not.toContain(own.id);
    expect(listA.sort()).toEqual((await rows(a.tenant_id)).map((r) => r.id).sort());

    const refused = await a.http.delete(`/auth/tokens/${own.id}`);
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toBe(`API token ${own.id} not found in this workspace`);
    expect((await rowOf(own.token)).revoked_at).toBeNull();
    expect((await new Http(testApp.url, own.token).get('/projects')).status).toBe(200);
  });

  test('revoking a token takes effect at once: 204, then 401 for it; an unknown id is 404 and a bad id 400', async () => {
    const { id, token } = (await a.http.post('/auth/tokens', { label: 'to revoke' })).body;
    const user = new Http(testApp.url, token);
    expect((await user.get('/projects')).status).toBe(200);
    const revoked = await a.http.delete(`/auth/tokens/${id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    const after = await user.get('/projects');
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe('invalid or revoked API token');
    expect((await rowOf(token)).revoked_at).toBeInstanceOf(Date);
    expect((await a.http.get('/auth/tokens')).body.find((t: { id: string }) => t.id === id).revoked).toBe(true);
    // Revoking it again changes nothing.
    expect((await a.http.delete(`/auth/tokens/${id}`)).status).toBe(204);

    const unknown = randomUUID();
    expect(await a.http.delete(`/auth/tokens/${unknown}`)).toMatchObject({
      status: 404,
      body: { detail: `API token ${unknown} not found in this workspace`, code: 'TOKEN_NOT_FOUND' },
    });
    expect(await a.http.delete('/auth/tokens/not-an-id')).toMatchObject({ status: 400, body: { detail: 'token_id must be a UUID' } });
  });

  test.each([
    [{}, 'label is required'],
    [{ label: '' }, 'label must not be empty'],
    [{ label: 5 }, 'label must be a string'],
    [{ label: 'x'.repeat(101) }, 'label must be shorter than or equal to 100 characters'],
    [{ label: 'two\nlines' }, 'label must not contain control characters'],
    [{ label: 'ok', scope: 'admin' }, 'scope must be one of full, read'],
    [{ label: 'ok', expires_in_days: 0 }, 'expires_in_days must not be less than 1'],
    [{ label: 'ok', expires_in_days: 3651 }, 'expires_in_days must not be greater than 3650'],
    [{ label: 'ok', expires_in_days: 1.5 }, 'expires_in_days must be an integer'],
    [{ label: 'ok', token: 'sk_service_chosen' }, 'unknown field token'],
  ])('POST /auth/tokens %j is refused with 400 "%s" and stores nothing', async (body, detail) => {
    const before = (await rows(a.tenant_id)).length;
    const res = await a.http.post('/auth/tokens', body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe(detail);
    expect(await rows(a.tenant_id)).toHaveLength(before);
  });

  test('a token given expires_in_days carries its expiry, and is refused once it has passed', async () => {
    const created = (await a.http.post('/auth/tokens', { label: 'short-lived', expires_in_days: 7 })).body;
    const expires = Date.parse(created.expires_at);
    expect(Math.abs(expires - (Date.now() + 7 * 86_400_000))).toBeLessThan(60_000);
    const user = new Http(testApp.url, created.token);
    expect((await user.get('/projects')).status).toBe(200);
    await db.query("UPDATE control.api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [created.id]);
    const refused = await user.get('/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toBe('this API token has expired: create a new one');
  });

  describe('a read-scope token', () => {
    let reader: Http;
    let projectId: string;

    beforeAll(async () => {
      const created = await a.http.post('/auth/tokens', { label: 'dashboard', scope: 'read' });
      expect(created.body.scope).toBe('read');
      reader = new Http(testApp.url, created.body.token);
      projectId = (await a.http.post('/projects', { name: 'read me' })).body.id;
    });

    test('reads over REST, and every state-changing method answers 403 READ_ONLY_TOKEN and changes nothing', async () => {
      expect((await reader.get(`/projects/${projectId}`)).body.name).toBe('read me');
      expect((await reader.get('/auth/tokens')).status).toBe(200);
      const attempts = [
        await reader.post('/projects', { name: 'should not exist' }),
        await reader.post(`/projects/${projectId}/rename`, { name: 'renamed' }),
        await reader.delete(`/projects/${projectId}`),
        await reader.post('/auth/tokens', { label: 'escalate' }),
        await reader.delete('/api/keys/orphaned'),
      ];
      for (const res of attempts) {
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('READ_ONLY_TOKEN');
        expect(res.body.detail).toMatch(/^this API token has the read scope and may only read: (POST|DELETE) \/\S+ needs a full-scope token$/);
      }
      const names = (await a.http.get('/projects')).body.map((p: { name: string }) => p.name);
      expect(names).toContain('read me');
      expect(names).not.toContain('should not exist');
      expect(names).not.toContain('renamed');
      expect((await rows(a.tenant_id)).map((r) => r.name)).not.toContain('escalate');
    });

    test.each(['http', 'sse'] as const)('over MCP (%s) calls read-only tools and is refused every other tool', async (transport) => {
      const client = await connectMcp(testApp.url, reader['token'], transport);
      try {
        const listed = await callTool(client, 'list_projects');
        expect(listed.isError).toBe(false);
        expect(listed.value.map((p: { name: string }) => p.name)).toContain('read me');
        const refused = await callTool(client, 'create_project', { name: `via mcp ${transport}` });
        expect(refused.isError).toBe(true);
        expect(refused.text).toBe('this API token has the read scope and may only read: the tool create_project needs a full-scope token');
        expect(refused.structured).toMatchObject({ code: 'READ_ONLY_TOKEN' });
        const sessions = await callTool(client, 'start_session', { project_id: projectId });
        expect(sessions.isError).toBe(true);
      } finally {
        await client.close();
      }
      const names = (await a.http.get('/projects')).body.map((p: { name: string }) => p.name);
      expect(names).not.toContain(`via mcp ${transport}`);
    });
  });

  test('a mistyped token is refused by its checksum, without waiting for the database', async () => {
    const { token } = (await a.http.post('/auth/tokens', { label: 'typo' })).body;
    const at = 20;
    const mistyped = token.slice(0, at) + (token[at] === 'a' ? 'b' : 'a') + token.slice(at + 1);
    const legacyShaped = `sk_service_${randomBytes(32).toString('base64url')}`;
    // While api_tokens is locked, any lookup waits: the mistyped token must be answered anyway.
    const locker = new Client({ connectionString: db.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE control.api_tokens IN ACCESS EXCLUSIVE MODE');
      const started = Date.now();
      const refused = await new Http(testApp.url, mistyped).get('/projects');
      expect(refused.status).toBe(401);
      expect(refused.body.detail).toBe('invalid API token: its checksum does not match (mistyped or cut short?)');
      expect(Date.now() - started).toBeLessThan(2000);
      let looked = false;
      const lookup = new Http(testApp.url, legacyShaped).get('/projects').then((r) => ((looked = true), r));
      await sleep(300);
      expect(looked).toBe(false);
      await locker.query('ROLLBACK');
      expect((await lookup).status).toBe(401);
    } finally {
      await locker.end();
    }
  });

  test('a token issued before the checksum (43 base64url characters) keeps working', async () => {
    const legacy = `sk_service_${randomBytes(32).toString('base64url')}`;
    await db.query(`INSERT INTO control.api_tokens (id, tenant_id, name, token_hash, token_prefix, created_at) VALUES ($1, $2, 'old', $3, $4, now())`, [
      randomUUID(),
      a.tenant_id,
      hashApiToken(legacy),
      legacy.slice(0, 15),
    ]);
    const res = await new Http(testApp.url, legacy).get('/projects');
    expect(res.status).toBe(200);
    expect((await rowOf(legacy)).scope).toBe('full');
  });

  test('last_used_at is written on use, and not again within the minute', async () => {
    const { id, token } = (await a.http.post('/auth/tokens', { label: 'usage' })).body;
    const user = new Http(testApp.url, token);
    expect((await rowOf(token)).last_used_at).toBeNull();
    const before = Date.now();
    await user.get('/projects');
    const first = (await waitUntil(async () => (await rowOf(token)).last_used_at, 5000, 'last_used_at'))!;
    expect(first.getTime()).toBeGreaterThanOrEqual(before - 1000);
    for (let i = 0; i < 5; i++) await user.get('/projects');
    await testApp.app.get(TokenUsage).flush();
    await sleep(1200);
    expect((await rowOf(token)).last_used_at).toEqual(first);
    expect((await a.http.get('/auth/tokens')).body.find((t: { id: string }) => t.id === id).last_used_at).toBe(first.toISOString());
  });
});

describePostgres('API tokens of people signed in (hosted)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let owner: SignedInClient;
  let ownerEmail: string;

  /** A person who is already `role` of `tenantId` when they sign in (memberships are made here as an invite accepted would make them). */
  async function joined(tenantId: string, role: 'admin' | 'member', status: 'active' | 'invited' = 'active'): Promise<{ email: string; accountId: string }> {
    const email = freshEmail(role);
    const accountId = randomUUID();
    await db.query('INSERT INTO control.accounts (id, email, email_verified_at, created_at, updated_at) VALUES ($1, $2, now(), now(), now())', [accountId, email]);
    await db.query(`INSERT INTO control.memberships (id, tenant_id, account_id, email, role, status, created_at, joined_at) VALUES ($1, $2, $3, $4, $5, $6, now(), now())`, [
      randomUUID(),
      tenantId,
      accountId,
      email,
      role,
      status,
    ]);
    return { email, accountId };
  }

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
    ownerEmail = freshEmail('owner');
    owner = await signIn(testApp, ownerEmail);
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test("an owner creates full and read tokens; each lists its creator's e-mail and stores the account", async () => {
    const full = await owner.http.post('/auth/tokens', { label: 'ci' });
    expect(full.status).toBe(201);
    expect(full.body).toMatchObject({ scope: 'full', created_by: ownerEmail });
    const read = await owner.http.post('/auth/tokens', { label: 'wall screen', scope: 'read' });
    expect(read.body).toMatchObject({ scope: 'read', created_by: ownerEmail });
    const [row] = await db.query<TokenRow>('SELECT * FROM control.api_tokens WHERE id = $1', [full.body.id]);
    expect(row).toMatchObject({ tenant_id: owner.tenantId, created_by: owner.accountId });
    const listed = (await owner.http.get('/auth/tokens')).body;
    expect(listed.map((t: { id: string; created_by: string }) => [t.id, t.created_by])).toEqual(
      expect.arrayContaining([
        [full.body.id, ownerEmail],
        [read.body.id, ownerEmail],
      ]),
    );
    // The token acts in the owner's workspace, and a token it makes is credited to the owner too.
    const byToken = new Http(testApp.url, full.body.token);
    expect((await byToken.post('/projects', { name: 'from ci' })).status).toBe(201);
    expect((await byToken.post('/auth/tokens', { label: 'made by ci' })).body.created_by).toBe(ownerEmail);
    expect((await owner.http.get('/projects')).body.map((p: { name: string }) => p.name)).toContain('from ci');
  });

  test("a member lists tokens and creates read tokens only, revokes their own and no one else's, and may not purge", async () => {
    const memberOf = await joined(owner.tenantId, 'member');
    const member = await signIn(testApp, memberOf.email);
    expect(member.tenantId).toBe(owner.tenantId);
    const ownersToken = (await owner.http.post('/auth/tokens', { label: "owner's" })).body;

    expect((await member.http.get('/auth/tokens')).body.map((t: { id: string }) => t.id)).toContain(ownersToken.id);
    const before = (await db.query('SELECT id FROM control.api_tokens WHERE tenant_id = $1', [owner.tenantId])).length;
    const full = await member.http.post('/auth/tokens', { label: 'mine, full' });
    expect(full.status).toBe(403);
    expect(full.body).toEqual({
      code: 'NOT_ALLOWED',
      detail: 'members may create read-scope tokens only ({"scope": "read"}); a full-scope token needs an owner or admin of the workspace',
    });
    expect(await db.query('SELECT id FROM control.api_tokens WHERE tenant_id = $1', [owner.tenantId])).toHaveLength(before);

    const mine = await member.http.post('/auth/tokens', { label: 'mine', scope: 'read' });
    expect(mine.status).toBe(201);
    expect(mine.body.created_by).toBe(memberOf.email);

    const notMine = await member.http.delete(`/auth/tokens/${ownersToken.id}`);
    expect(notMine.status).toBe(403);
    expect(notMine.body.detail).toBe('members may revoke only the tokens they created; ask an owner or admin of the workspace');
    expect((await new Http(testApp.url, ownersToken.token).get('/projects')).status).toBe(200);
    expect((await member.http.delete(`/auth/tokens/${mine.body.id}`)).status).toBe(204);
    expect((await new Http(testApp.url, mine.body.token).get('/projects')).status).toBe(401);

    const purge = await member.http.delete('/api/keys/orphaned');
    expect(purge.status).toBe(403);
    expect(purge.body.code).toBe('NOT_ALLOWED');
  });

  test("an admin creates full tokens and revokes anyone's", async () => {
    const admin = await signIn(testApp, (await joined(owner.tenantId, 'admin')).email);
    const ownersToken = (await owner.http.post('/auth/tokens', { label: 'owner again' })).body;
    expect((await admin.http.post('/auth/tokens', { label: 'admin full' })).body.scope).toBe('full');
    expect((await admin.http.delete(`/auth/tokens/${ownersToken.id}`)).status).toBe(204);
    expect((await new Http(testApp.url, ownersToken.token).get('/projects')).status).toBe(401);
  });

  test('DELETE /api/keys/orphaned deletes oauth tokens older than 24 hours whose creator is no longer an active member, and nothing else', async () => {
    const other = await signIn(testApp, freshEmail('other'));
    const exMember = await joined(owner.tenantId, 'member');
    await db.query('DELETE FROM control.memberships WHERE account_id = $1', [exMember.accountId]);
    const invited = await joined(owner.tenantId, 'member', 'invited');
    const orphanToken = (await owner.http.post('/auth/tokens', { label: 'oauth' })).body;
    await db.query('UPDATE control.api_tokens SET created_by = NULL WHERE id = $1', [orphanToken.id]);
    const seeded: Record<string, string> = {};
    const seed = async (key: string, tenantId: string, label: string, hoursAgo: number, createdBy: string | null) => {
      seeded[key] = randomUUID();
      await db.query(
        `INSERT INTO control.api_tokens (id, tenant_id, name, token_hash, token_prefix, created_at, created_by) VALUES ($1, $2, $3, $4, 'sk_service_xxxx', now() - make_interval(hours => $5), $6)`,
        [seeded[key], tenantId, label, hashApiToken(`sk_service_${randomBytes(30).toString('hex')}`), hoursAgo, createdBy],
      );
    };
    await db.query("UPDATE control.api_tokens SET created_at = now() - interval '25 hours' WHERE id = $1", [orphanToken.id]);
    await seed('ex-member', owner.tenantId, 'oauth', 25, exMember.accountId);
    await seed('invited only', owner.tenantId, 'oauth', 48, invited.accountId);
    await seed('member still', owner.tenantId, 'oauth', 25, owner.accountId);
    await seed('too recent', owner.tenantId, 'oauth', 23, null);
    await seed('other label', owner.tenantId, 'laptop', 25, null);
    await seed('label case', owner.tenantId, 'OAuth', 25, null);
    await seed('other workspace', other.tenantId, 'oauth', 25, null);
    expect((await new Http(testApp.url, orphanToken.token).get('/projects')).status).toBe(200);

    const purged = await owner.http.delete('/api/keys/orphaned');
    expect(purged.status).toBe(200);
    expect(purged.body).toEqual({ deleted: 3 });
    const left = (await db.query<{ id: string }>('SELECT id FROM control.api_tokens')).map((r) => r.id);
    expect(left).not.toContain(orphanToken.id);
    expect(left).not.toContain(seeded['ex-member']);
    expect(left).not.toContain(seeded['invited only']);
    for (const kept of ['member still', 'too recent', 'other label', 'label case', 'other workspace']) expect(left).toContain(seeded[kept]);
    expect((await new Http(testApp.url, orphanToken.token).get('/projects')).status).toBe(401);
    expect((await owner.http.delete('/api/keys/orphaned')).body).toEqual({ deleted: 0 });
  });
});

describePostgres('API tokens across instances', () => {
  let db: TestDatabase;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    one = await startApp(hostedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '2' }));
    two = await startApp(hostedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '2' }));
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  test('a revocation on one instance holds there at once and on the other within SERVICE_TOKEN_CACHE_SECONDS', async () => {
    const owner = await tenantClient(one, 'Shared');
    const { id, token } = (await owner.http.post('/auth/tokens', { label: 'everywhere' })).body;
    const onOne = new Http(one.url, token);
    const onTwo = new Http(two.url, token);
    expect((await onOne.get('/projects')).status).toBe(200);
    expect((await onTwo.get('/projects')).status).toBe(200); // now remembered by instance two

    const revokedAt = Date.now();
    expect((await owner.http.delete(`/auth/tokens/${id}`)).status).toBe(204);
    expect((await onOne.get('/projects')).status).toBe(401);
    await waitUntil(async () => (await onTwo.get('/projects')).status === 401, 5000, 'the other instance to refuse the revoked token');
    expect(Date.now() - revokedAt).toBeLessThan(2000 + 1000);
  });
});

describe('API tokens (self-hosted)', () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await startApp();
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test.each([
    ['GET', '/auth/tokens'],
    ['POST', '/auth/tokens'],
    ['DELETE', `/auth/tokens/${randomUUID()}`],
    ['DELETE', '/api/keys/orphaned'],
  ])('%s %s answers 404 with a detail', async (method, path) => {
    const res = await new Http(testApp.url).send(method, path, method === 'POST' ? { label: 'x' } : undefined);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('API tokens are for hosted mode: a self-hosted Baton needs no token');
  });
});
