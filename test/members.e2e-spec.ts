import { createHash } from 'node:crypto';
import { INVITE_RESEND_LIMIT } from '../src/modules/members/invites.service';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const DAY_MS = 86_400_000;

/** Workspace members and invitations of a hosted Baton, with e-mail going to a local stand-in of the provider. */
describePostgres('workspace members and invitations', () => {
  let db: TestDatabase;
  let mail: Receiver;
  let testApp: TestApp;
  let owner: SignedInClient;

  beforeAll(async () => {
    db = await TestDatabase.create();
    mail = await Receiver.start();
    // Lookups are remembered for 30 s here: what a removal changes at once is changed by forgetting, not by expiry.
    testApp = await startApp(hostedEnv(db.url, { EMAIL_API_KEY: 're_test_key', SERVICE_EMAIL_API_URL: mail.url, SERVICE_TOKEN_CACHE_SECONDS: '30' }));
    owner = await signIn(testApp, freshEmail('owner'), { name: 'Olga Owner' });
  });
  afterAll(async () => {
    await testApp?.close();
    await mail?.close();
    await db?.drop();
  });

  /** The invitation e-mails sent to `to`, oldest first. */
  const lettersTo = (to: string) => mail.at('/emails').filter((r) => [r.body.to].flat().includes(to));

  /** The token of the newest invitation e-mail to `to`, once `count` of them arrived (they are sent in the background). */
  async function tokenFor(to: string, count = 1): Promise<string> {
    await waitUntil(() => lettersTo(to).length >= count, 5000, `invitation e-mail ${count} to ${to}`);
    const letters = lettersTo(to);
    const token = /\/workspace\/accept\?token=([A-Za-z0-9_-]+)/.exec(letters[letters.length - 1]?.body.text ?? '')?.[1];
    if (!token) throw new Error(`no invitation e-mail to ${to}`);
    return token;
  }

  /** Invites `email` into `by`'s workspace and has that person accept; returns the member and their client. */
  async function join(by: SignedInClient, email: string, role = 'member'): Promise<{ memberId: string; person: SignedInClient }> {
    const invited = await by.http.post('/workspace/invite', { email, role });
    expect(invited.status).toBe(201);
    const person = await signIn(testApp, email);
    const accepted = await person.http.get(`/workspace/accept?token=${await tokenFor(email)}`);
    expect(accepted.status).toBe(303);
    return { memberId: invited.body.id, person };
  }

  test('an owner invites by e-mail: 201 with the invited member, one e-mail with a single-use link, only its hash stored', async () => {
    const email = freshEmail('ivy');
    const res = await owner.http.post('/workspace/invite', { email: `  ${email.toUpperCase()} ` });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      email,
      name: null,
      role: 'member',
      codehost_access: 'read',
      status: 'invited',
      joined_at: null,
      invite_expires_at: expect.any(String),
      invite_email: 'queued',
    });
    const days = (Date.parse(res.body.invite_expires_at) - Date.now()) / DAY_MS;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
    await waitUntil(() => lettersTo(email).length === 1, 5000, 'the invitation e-mail');
    const letter = lettersTo(email)[0].body;
    expect(letter.subject).toBe("Olga Owner invited you to Olga Owner's workspace on Baton");
    expect(letter.text).toContain('http://127.0.0.1/workspace/accept?token=');
    const token = await tokenFor(email);
    const [row] = await db.query<{ invite_token_hash: string; status: string; invited_by: string }>(
      'SELECT invite_token_hash, status, invited_by FROM control.memberships WHERE id = $1',
      [res.body.id],
    );
    expect(row).toEqual({ invite_token_hash: sha256(token), status: 'invited', invited_by: owner.accountId });
    const anywhere = await db.query(`SELECT 1 FROM control.memberships WHERE row_to_json(memberships)::text LIKE '%' || $1 || '%'`, [token]);
    expect(anywhere).toEqual([]);
    expect(res.text).not.toContain(token);
  });

  test('GET /workspace/members lists joined members, then invitations', async () => {
    const email = freshEmail('listed');
    const invited = await owner.http.post('/workspace/invite', { email, role: 'admin' });
    const res = await owner.http.get('/workspace/members');
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      id: expect.any(String),
      email: expect.stringMatching(/^owner-/),
      name: 'Olga Owner',
      role: 'owner',
      codehost_access: 'write', // the person who made the workspace
      status: 'active',
      joined_at: expect.any(String),
      invite_expires_at: null,
    });
    expect(res.body.slice(1).every((m: { status: string }) => m.status === 'invited')).toBe(true);
    expect(res.body).toContainEqual(expect.objectContaining({ id: invited.body.id, email, role: 'admin', status: 'invited' }));
  });

  test('opening the link signed out leads to sign-in and back; signed in with the address, the person joins and the workspace becomes theirs to act in', async () => {
    const project = await owner.http.post('/projects', { name: `Shared ${Date.now()}` });
    const email = freshEmail('june');
    const invited = await owner.http.post('/workspace/invite', { email });
    const token = await tokenFor(email);
    const anonymous = await new Http(testApp.url).get(`/workspace/accept?token=${token}`);
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(`/auth/login?next=${encodeURIComponent(`/workspace/accept?token=${token}`)}`);
    expect((await db.query('SELECT status FROM control.memberships WHERE id = $1', [invited.body.id]))[0]).toEqual({ status: 'invited' });

    const june = await signIn(testApp, email, { name: 'June' });
    expect(june.tenantId).not.toBe(owner.tenantId);
    const accepted = await june.http.get(`/workspace/accept?token=${token}`);
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe('/dashboard');
    expect((await june.http.get('/me')).body.workspace).toMatchObject({ id: owner.tenantId, role: 'member' });
    expect((await june.http.get('/projects')).body.map((p: { id: string }) => p.id)).toContain(project.body.id);
    const [row] = await db.query('SELECT account_id, status, invite_token_hash, joined_at IS NOT NULL AS joined FROM control.memberships WHERE id = $1', [invited.body.id]);
    expect(row).toEqual({ account_id: june.accountId, status: 'active', invite_token_hash: null, joined: true });
    const listed = (await owner.http.get('/workspace/members')).body.find((m: { id: string }) => m.id === invited.body.id);
    expect(listed).toMatchObject({ name: 'June', status: 'active', joined_at: expect.any(String), invite_expires_at: null });

    const again = await june.http.get(`/workspace/accept?token=${token}`);
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('INVITE_NOT_FOUND');
  });

  test('two opens of one link at once: one joins, the other is refused', async () => {
    const email = freshEmail('racer');
    const invited = await owner.http.post('/workspace/invite', { email });
    const person = await signIn(testApp, email);
    const token = await tokenFor(email);
    const answers = await Promise.all([1, 2, 3].map(() => person.http.get(`/workspace/accept?token=${token}`)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 404, 404]);
    expect(await db.query('SELECT status FROM control.memberships WHERE id = $1', [invited.body.id])).toEqual([{ status: 'active' }]);
  });

  test('a person signed in with another address cannot use the link, and the invitation stays', async () => {
    const email = freshEmail('meant');
    const invited = await owner.http.post('/workspace/invite', { email });
    const other = await signIn(testApp, freshEmail('other'));
    const res = await other.http.get(`/workspace/accept?token=${await tokenFor(email)}`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'INVITE_FOR_ANOTHER_ADDRESS', detail: expect.stringMatching(/another e-mail address/) });
    expect(res.text).not.toContain(email);
    expect((await db.query('SELECT status, account_id FROM control.memberships WHERE id = $1', [invited.body.id]))[0]).toEqual({ status: 'invited', account_id: null });
    expect((await other.http.get('/me')).body.workspace.id).toBe(other.tenantId);
  });

  test('an expired link answers 410; an unknown or missing token is refused', async () => {
    const email = freshEmail('late');
    const invited = await owner.http.post('/workspace/invite', { email });
    await db.query("UPDATE control.memberships SET invite_expires_at = now() - interval '1 minute' WHERE id = $1", [invited.body.id]);
    const person = await signIn(testApp, email);
    const expired = await person.http.get(`/workspace/accept?token=${await tokenFor(email)}`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('INVITE_EXPIRED');
    expect((await person.http.get('/workspace/accept?token=not-a-real-token')).status).toBe(404);
    const missing = await person.http.get('/workspace/accept');
    expect(missing.status).toBe(400);
    expect(missing.body.detail).toMatch(/token/);
  });

  test('sending again mails a new link and kills the old one', async () => {
    const email = freshEmail('again');
    const invited = await owner.http.post('/workspace/invite', { email });
    const first = await tokenFor(email);
    const resent = await owner.http.post(`/workspace/invite/${invited.body.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ id: invited.body.id, status: 'invited', invite_email: 'queued' });
    const second = await tokenFor(email, 2);
    expect(lettersTo(email)).toHaveLength(2);
    expect(second).not.toBe(first);
    const person = await signIn(testApp, email);
    expect((await person.http.get(`/workspace/accept?token=${first}`)).status).toBe(404);
    expect((await person.http.get(`/workspace/accept?token=${second}`)).status).toBe(303);
    const joined = await owner.http.post(`/workspace/invite/${invited.body.id}/resend`);
    expect(joined.status).toBe(409);
    expect(joined.body.code).toBe('NOT_INVITED');
  });

  test('sending one invitation again is limited to 5 an hour (429 with Retry-After, no e-mail, the last link still good); another workspace cannot send it', async () => {
    const email = freshEmail('pester');
    const invited = await owner.http.post('/workspace/invite', { email });
    for (let i = 1; i <= INVITE_RESEND_LIMIT.hits; i++) expect((await owner.http.post(`/workspace/invite/${invited.body.id}/resend`)).status).toBe(200);
    const last = await tokenFor(email, 1 + INVITE_RESEND_LIMIT.hits);
    const limited = await owner.http.post(`/workspace/invite/${invited.body.id}/resend`);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringMatching(/sent again 5 times in the last hour/) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await sleep(300);
    expect(lettersTo(email)).toHaveLength(1 + INVITE_RESEND_LIMIT.hits);
    // Another invitation of the same workspace has its own count.
    const other = await owner.http.post('/workspace/invite', { email: freshEmail('fresh') });
    expect((await owner.http.post(`/workspace/invite/${other.body.id}/resend`)).status).toBe(200);
    // Another workspace's owner does not find this invitation.
    const stranger = await signIn(testApp, freshEmail('stranger'));
    expect((await stranger.http.post(`/workspace/invite/${other.body.id}/resend`)).status).toBe(404);
    const person = await signIn(testApp, email);
    expect((await person.http.get(`/workspace/accept?token=${last}`)).status).toBe(303);
  });

  test('inviting a pending or joined address is 409 naming the member; bad input is 400 naming the field', async () => {
    const email = freshEmail('twice');
    const first = await owner.http.post('/workspace/invite', { email });
    const pending = await owner.http.post('/workspace/invite', { email });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ code: 'INVITE_PENDING', member_id: first.body.id });
    const ownAddress = (await owner.http.get('/me')).body.account.email;
    const joined = await owner.http.post('/workspace/invite', { email: ownAddress });
    expect(joined.status).toBe(409);
    expect(joined.body.code).toBe('ALREADY_MEMBER');
    const before = await db.query('SELECT count(*)::int AS n FROM control.memberships');
    for (const [body, field] of [
      [{ email: 'not-an-address' }, 'email'],
      [{}, 'email'],
      [{ email: 42 }, 'email'],
      [{ email: freshEmail(), role: 'king' }, 'role'],
      [{ email: freshEmail(), extra: 1 }, 'extra'],
    ] as const) {
      const res = await owner.http.post('/workspace/invite', body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(field);
    }
    expect(await db.query('SELECT count(*)::int AS n FROM control.memberships')).toEqual(before);
    expect((await owner.http.post('/workspace/invite/not-a-uuid/resend')).status).toBe(400);
    expect((await owner.http.post('/workspace/invite/00000000-0000-4000-8000-000000000000/resend')).status).toBe(404);
  });

  test('roles: members only read; admins manage admins and members but never an owner; a token reads but manages no one', async () => {
    const { memberId: adminId, person: admin } = await join(owner, freshEmail('adam'), 'admin');
    const { memberId: memberId, person: member } = await join(owner, freshEmail('mia'));
    const ownerId = (await owner.http.get('/workspace/members')).body.find((m: { role: string }) => m.role === 'owner').id;

    expect((await member.http.get('/workspace/members')).status).toBe(200);
    const memberInvites = await member.http.post('/workspace/invite', { email: freshEmail() });
    expect(memberInvites.status).toBe(403);
    expect(memberInvites.body.code).toBe('NOT_ALLOWED');
    expect((await member.http.patch(`/workspace/members/${adminId}`, { role: 'member' })).status).toBe(403);
    expect((await member.http.delete(`/workspace/members/${adminId}`)).status).toBe(403);

    expect((await admin.http.post('/workspace/invite', { email: freshEmail(), role: 'admin' })).status).toBe(201);
    expect((await admin.http.post('/workspace/invite', { email: freshEmail(), role: 'owner' })).status).toBe(403);
    expect((await admin.http.patch(`/workspace/members/${memberId}`, { role: 'owner' })).status).toBe(403);
    expect((await admin.http.patch(`/workspace/members/${ownerId}`, { codehost_access: 'none' })).status).toBe(403);
    expect((await admin.http.delete(`/workspace/members/${ownerId}`)).status).toBe(403);
    const promoted = await admin.http.patch(`/workspace/members/${memberId}`, { role: 'admin', codehost_access: 'write' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({ id: memberId, role: 'admin', codehost_access: 'write', status: 'active' });
    // The member's own session sees the new role at once, though lookups are remembered for 30 s.
    expect((await member.http.get('/me')).body.workspace.role).toBe('admin');
    expect((await db.query('SELECT role, codehost_access FROM control.memberships WHERE id = $1', [memberId]))[0]).toEqual({ role: 'admin', codehost_access: 'write' });

    const token = await testApp.app.get(ApiTokens).createToken(owner.tenantId, 'integration');
    const byToken = new Http(testApp.url, token);
    expect((await byToken.get('/workspace/members')).status).toBe(200);
    const tokenInvites = await byToken.post('/workspace/invite', { email: freshEmail() });
    expect(tokenInvites.status).toBe(403);
    expect(tokenInvites.body.code).toBe('PERSON_REQUIRED');
  });

  test('PATCH changes only what is given and refuses an empty or bad body', async () => {
    const { memberId } = await join(owner, freshEmail('pat'));
    const access = await owner.http.patch(`/workspace/members/${memberId}`, { codehost_access: 'none' });
    expect(access.status).toBe(200);
    expect(access.body).toMatchObject({ role: 'member', codehost_access: 'none' });
    for (const [body, field] of [
      [{}, 'role or codehost_access'],
      [{ role: 'boss' }, 'role'],
      [{ codehost_access: 'admin' }, 'codehost_access'],
      [{ status: 'active' }, 'status'],
    ] as const) {
      const res = await owner.http.patch(`/workspace/members/${memberId}`, body);
      expect(res.status).toBe(400);
      expect(res.body.detail).toContain(field);
    }
    expect((await db.query('SELECT role, codehost_access FROM control.memberships WHERE id = $1', [memberId]))[0]).toEqual({ role: 'member', codehost_access: 'none' });
    expect((await owner.http.patch('/workspace/members/00000000-0000-4000-8000-000000000000', { role: 'admin' })).status).toBe(404);
  });

  test('the last owner can be neither demoted nor removed (409); with a second owner, either may go', async () => {
    const solo = await signIn(testApp, freshEmail('solo'));
    const soloId = (await solo.http.get('/workspace/members')).body[0].id;
    const demote = await solo.http.patch(`/workspace/members/${soloId}`, { role: 'admin' });
    expect(demote.status).toBe(409);
    expect(demote.body).toEqual({ code: 'LAST_OWNER', detail: 'the last owner of a workspace cannot be demoted: make another member an owner first' });
    const leave = await solo.http.delete(`/workspace/members/${soloId}`);
    expect(leave.status).toBe(409);
    expect(leave.body.detail).toMatch(/cannot be removed/);

    const { memberId: coId, person: co } = await join(solo, freshEmail('co'), 'owner');
    expect((await co.http.patch(`/workspace/members/${soloId}`, { role: 'member' })).status).toBe(200);
    const lastNow = await co.http.delete(`/workspace/members/${coId}`);
    expect(lastNow.status).toBe(409);
    expect((await db.query("SELECT count(*)::int AS n FROM control.memberships WHERE tenant_id = $1 AND role = 'owner'", [solo.tenantId]))[0]).toEqual({ n: 1 });
  });

  test("another workspace's members are neither listed nor reachable", async () => {
    const stranger = await signIn(testApp, freshEmail('stranger'));
    const strangerId = (await stranger.http.get('/workspace/members')).body[0].id;
    const ours = (await owner.http.get('/workspace/members')).body.map((m: { id: string }) => m.id);
    expect(ours).not.toContain(strangerId);
    expect((await stranger.http.get('/workspace/members')).body).toHaveLength(1);
    expect((await owner.http.patch(`/workspace/members/${strangerId}`, { role: 'member' })).status).toBe(404);
    expect((await owner.http.delete(`/workspace/members/${strangerId}`)).status).toBe(404);
    expect((await db.query('SELECT role FROM control.memberships WHERE id = $1', [strangerId]))[0]).toEqual({ role: 'owner' });
  });

  test('withdrawing an invitation deletes it and kills its link', async () => {
    const email = freshEmail('withdrawn');
    const invited = await owner.http.post('/workspace/invite', { email });
    expect((await owner.http.delete(`/workspace/members/${invited.body.id}`)).status).toBe(204);
    const person = await signIn(testApp, email);
    expect((await person.http.get(`/workspace/accept?token=${await tokenFor(email)}`)).status).toBe(404);
    expect(await db.query('SELECT 1 FROM control.memberships WHERE id = $1', [invited.body.id])).toEqual([]);
  });

  test("a removed member's session stops reaching the workspace and the tokens they made in it are revoked, at once here and within SERVICE_TOKEN_CACHE_SECONDS on another instance", async () => {
    const other = await startApp(hostedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '2' }));
    try {
      const { memberId, person } = await join(owner, freshEmail('leaving'));
      const tokens = testApp.app.get(ApiTokens);
      const theirs = await tokens.createToken(owner.tenantId, 'theirs');
      const ownersToken = await tokens.createToken(owner.tenantId, 'owners');
      await db.query('UPDATE control.api_tokens SET created_by = $1 WHERE token_prefix = $2', [person.accountId, theirs.slice(0, 15)]);
      await db.query('UPDATE control.api_tokens SET created_by = $1 WHERE token_prefix = $2', [owner.accountId, ownersToken.slice(0, 15)]);
      const here = { cookie: person.http, token: new Http(testApp.url, theirs) };
      const there = { cookie: new Http(other.url).withHeaders({ cookie: person.cookie, origin: other.url }), token: new Http(other.url, theirs) };
      // Every credential works, and is now remembered by both instances.
      for (const client of [here.cookie, here.token, there.cookie, there.token]) expect((await client.get('/projects')).status).toBe(200);

      expect((await owner.http.delete(`/workspace/members/${memberId}`)).status).toBe(204);
      const removedAt = Date.now();
      const bySession = await here.cookie.get('/projects');
      expect(bySession.status).toBe(403);
      expect(bySession.body.detail).toMatch(/belong to no workspace/);
      expect((await here.token.get('/projects')).status).toBe(401);
      expect((await new Http(testApp.url, ownersToken).get('/projects')).status).toBe(200);
      const rows = await db.query<{ name: string; revoked: boolean }>(
        'SELECT name, revoked_at IS NOT NULL AS revoked FROM control.api_tokens WHERE token_prefix IN ($1, $2) ORDER BY name',
        [theirs.slice(0, 15), ownersToken.slice(0, 15)],
      );
      expect(rows).toEqual([
        { name: 'owners', revoked: false },
        { name: 'theirs', revoked: true },
      ]);
      expect(await db.query('SELECT 1 FROM control.memberships WHERE id = $1', [memberId])).toEqual([]);

      await waitUntil(async () => (await there.cookie.get('/projects')).status === 403 && (await there.token.get('/projects')).status === 401, 6000, 'the other instance');
      expect(Date.now() - removedAt).toBeLessThan(2000 + 1500);
      await sleep(100);
      expect((await there.cookie.get('/projects')).status).toBe(403);
    } finally {
      await other.close();
    }
  });

  test('without e-mail configured the invitation is made and the answer says the e-mail was skipped', async () => {
    const quiet = await startApp(hostedEnv(db.url));
    try {
      const person = await signIn(quiet, freshEmail('quiet'));
      const res = await person.http.post('/workspace/invite', { email: freshEmail() });
      expect(res.status).toBe(201);
      expect(res.body.invite_email).toBe('skipped');
    } finally {
      await quiet.close();
    }
  });
});

describe('workspace members, self-hosted', () => {
  test('the routes answer 404: a self-hosted Baton has no accounts', async () => {
    const testApp = await startApp({});
    try {
      const http = new Http(testApp.url);
      const list = await http.get('/workspace/members');
      expect(list.status).toBe(404);
      expect(list.body.code).toBe('MEMBERS_NOT_HOSTED');
      expect((await http.post('/workspace/invite', { email: 'a@example.test' })).status).toBe(404);
      expect((await http.get('/workspace/accept?token=abc')).status).toBe(404);
    } finally {
      await testApp.close();
    }
  });
});
