import { randomUUID } from 'node:crypto';
import { CodehostConnections } from '../src/modules/auth-providers/codehost-connections.service';
import { ProjectCodehost } from '../src/modules/codehost/project-codehost.entity';
import { DataSource } from 'typeorm';
import { SHARED_DATA_SOURCE } from '../src/database/database.module';
import { WebSessions } from '../src/modules/accounts/web-sessions.service';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { addMember, freshEmail, setCodehostAccess, signIn, SignedInClient } from './support/accounts';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { CodehostStandIn, READ, WRITE } from './support/codehost-stand-in';
import { Http } from './support/http';
import { callToolOnce } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';

const newToken = () => `ghp_${randomUUID().replace(/-/g, '')}`;

describe.each(hostedBackend())('hosted: a project uses a signed-in person’s code-host connection (%s)', (_name, backend) => {
  const token = newToken();
  const otherToken = newToken();
  let run: RunningBackend;
  let standIn: CodehostStandIn;
  let person: SignedInClient;
  let workspaceToken: string;

  beforeAll(async () => {
    standIn = await CodehostStandIn.start();
    standIn.tokens.set(token, 'octo');
    standIn.tokens.set(otherToken, 'octo-work');
    run = await backend.start({ CODEHOST_API_URL: standIn.url, SERVICE_MCP_RATE_LIMIT: '1000000' });
    person = await signIn(run.testApp, freshEmail('coder'));
    const connections = run.testApp.app.get(CodehostConnections);
    await connections.save(person.accountId, 'octo', ['repo'], token);
    await connections.save(person.accountId, 'octo-work', ['repo'], otherToken);
    await setCodehostAccess(person, 'write');
    workspaceToken = await run.testApp.app.get(ApiTokens).createToken(person.tenantId, 'codehost tests');
  });
  afterAll(async () => {
    await run?.stop();
    await standIn?.close();
  });

  async function linkedProject(): Promise<{ p: string; full: string }> {
    const full = `acme/h-${randomUUID().slice(0, 8)}`;
    standIn.addRepo(full, { octo: WRITE, 'octo-work': READ });
    const p = await createProject(person.http, 'Hosted codehost');
    expect((await person.http.post(`/projects/${p}/codehost/connect`, { repo: full, account_login: 'octo' })).status).toBe(200);
    return { p, full };
  }

  test("another tenant's token gets the same 404 as an unknown project on every route and tool, and changes nothing", async () => {
    const { p, full } = await linkedProject();
    const other = await tenantClient(run.testApp, `other-${randomUUID().slice(0, 6)}`);
    const answers = [
      await other.http.get(`/projects/${p}/codehost/status`),
      await other.http.get(`/projects/${p}/codehost/branches`),
      await other.http.get(`/projects/${p}/codehost/repos`),
      await other.http.get(`/projects/${p}/repo-image`),
      await other.http.post(`/projects/${p}/codehost/connect`, { repo: full, account_login: 'octo' }),
      await other.http.patch(`/projects/${p}/codehost/account`, { account_login: 'octo' }),
      await other.http.post(`/projects/${p}/codehost/push-mcp-template`, {}),
      await other.http.delete(`/projects/${p}/codehost/disconnect`),
    ];
    const unknown = await other.http.get(`/projects/${randomUUID()}/codehost/status`);
    expect(unknown.status).toBe(404);
    for (const res of answers)
      expect({ status: res.status, detail: res.body.detail.replace(p, 'ID') }).toEqual({ status: 404, detail: unknown.body.detail.replace(/[0-9a-f-]{36}/, 'ID') });
    const viaTool = await callToolOnce(run.testApp.url, other.token, 'patch_file', { project_id: p, path: 'x', content: 'y', message: 'z' });
    expect(viaTool.structured).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect(standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`))).toEqual([]);
    expect((await person.http.get(`/projects/${p}/codehost/status`)).body).toMatchObject({ connected: true, repo: full });
  });

  test('connecting needs the signed-in person: an API token of the workspace is refused (403) and nothing is linked', async () => {
    const p = await createProject(person.http, 'Hosted codehost');
    standIn.addRepo('acme/api-token', { octo: WRITE });
    const res = await new Http(run.testApp.url, workspaceToken).post(`/projects/${p}/codehost/connect`, { repo: 'acme/api-token', account_login: 'octo' });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('SIGNED_IN_PERSON_REQUIRED');
    expect((await person.http.get(`/projects/${p}/codehost/status`)).body).toEqual({ connected: false });
  });

  test('an account_login the person has no connection for answers 404; a token sent hosted answers 400', async () => {
    const p = await createProject(person.http, 'Hosted codehost');
    const missing = await person.http.post(`/projects/${p}/codehost/connect`, { repo: 'acme/api-token', account_login: 'stranger' });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('CODEHOST_CONNECTION_NOT_FOUND');
    const withToken = await person.http.post(`/projects/${p}/codehost/connect`, { repo: 'acme/api-token', account_login: 'octo', token: newToken() });
    expect(withToken.status).toBe(400);
    expect(withToken.body.detail).toMatch(/^token: /);
    expect((await person.http.get(`/projects/${p}/codehost/status`)).body).toEqual({ connected: false });
  });

  test('before connecting, GET .../codehost/repos?account_login= lists what that connection of the signed-in person sees', async () => {
    const full = `acme/choose-${randomUUID().slice(0, 6)}`;
    standIn.addRepo(full, { octo: READ });
    const p = await createProject(person.http, 'Hosted codehost');
    const repos = await person.http.get(`/projects/${p}/codehost/repos?account_login=octo`);
    expect(repos.status).toBe(200);
    expect(repos.body.map((r: { full_name: string }) => r.full_name)).toContain(full);
    expect((await person.http.get(`/projects/${p}/codehost/repos`)).body.code).toBe('CODEHOST_NOT_CONNECTED');
    expect((await person.http.get(`/projects/${p}/codehost/repos?account_login=nobody`)).status).toBe(404);
    expect((await person.http.get(`/projects/${p}/codehost/repos?account_login=a%2Fb`)).body.detail).toMatch(/^account_login must be/);
    const byToken = await new Http(run.testApp.url, workspaceToken).get(`/projects/${p}/codehost/repos?account_login=octo`);
    expect(byToken.body.code).toBe('SIGNED_IN_PERSON_REQUIRED');
    const other = await tenantClient(run.testApp, `other-${randomUUID().slice(0, 6)}`);
    expect((await other.http.get(`/projects/${p}/codehost/repos?account_login=octo`)).status).toBe(404);
  });

  test("tool calls with the workspace's API token use the linked connection; PATCH account switches it", async () => {
    const { p, full } = await linkedProject();
    const branches = await callToolOnce(run.testApp.url, workspaceToken, 'list_repo_branches', { project_id: p });
    expect(branches.value).toEqual([{ name: 'main', sha: expect.any(String), protected: false }]);
    expect(standIn.requests.filter((r) => r.path === `/repos/${full}/branches`).map((r) => r.token)).toEqual([token]);
    const switched = await person.http.patch(`/projects/${p}/codehost/account`, { account_login: 'OCTO-WORK' });
    expect(switched.status).toBe(200);
    expect(switched.body).toMatchObject({ account_login: 'octo-work', repository: { permissions: { push: false } } });
    const refused = await callToolOnce(run.testApp.url, workspaceToken, 'create_issue', { project_id: p, title: 'Hi' });
    expect(refused.structured).toMatchObject({ code: 'CODEHOST_PERMISSION_DENIED', detail: expect.stringContaining('octo-work') });
    expect(standIn.requests.filter((r) => r.path === `/repos/${full}`).at(-1)?.token).toBe(otherToken);
  });

  test("the linking member's codehost_access caps the project's access: read refuses the writes, none everything; nothing is sent", async () => {
    const capped = await signIn(run.testApp, freshEmail('capped'));
    const cappedToken = newToken();
    standIn.tokens.set(cappedToken, 'capped');
    await run.testApp.app.get(CodehostConnections).save(capped.accountId, 'capped', ['repo'], cappedToken);
    const full = `acme/capped-${randomUUID().slice(0, 6)}`;
    const repo = standIn.addRepo(full, { capped: WRITE });
    const p = await createProject(capped.http, 'Capped codehost');
    expect((await capped.http.post(`/projects/${p}/codehost/connect`, { repo: full, account_login: 'capped' })).status).toBe(200);
    // Access read: reads go through, writes are refused before the code host is asked.
    await setCodehostAccess(capped, 'read');
    expect((await capped.http.get(`/projects/${p}/codehost/branches`)).status).toBe(200);
    const write = await capped.http.post(`/projects/${p}/codehost/push-mcp-template`, {});
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ code: 'CODEHOST_PERMISSION_DENIED', codehost_access: 'read', detail: expect.stringMatching(/may only read/) });
    await setCodehostAccess(capped, 'none');
    const read = await capped.http.get(`/projects/${p}/codehost/branches`);
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ code: 'CODEHOST_PERMISSION_DENIED', codehost_access: 'none' });
    const again = await capped.http.post(`/projects/${p}/codehost/connect`, { repo: full, account_login: 'capped' });
    expect(again.status).toBe(403);
    expect(standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`))).toEqual([]);
    expect(repo.files.size).toBe(0);
    await setCodehostAccess(capped, 'write');
    expect((await capped.http.post(`/projects/${p}/codehost/push-mcp-template`, {})).status).toBe(200);
    expect([...repo.files.keys()]).toEqual(['.mcp.json']);
  });

  test("the caller's own codehost_access binds too: a member capped at read cannot write through an owner's link, none cannot read", async () => {
    const { p, full } = await linkedProject();
    const repo = standIn.repos.get(full)!;
    // A second person, a member of this workspace, working through an API token they made in it.
    const colleague = await addMember(run.testApp, person.tenantId, 'member', { codehostAccess: 'read' });
    const theirs = colleague.token;
    const db = run.testApp.app.get(SHARED_DATA_SOURCE) as DataSource;
    const writeTools: [string, Record<string, unknown>][] = [
      ['create_issue', { project_id: p, title: 'From a reader' }],
      ['patch_file', { project_id: p, path: 'README.md', content: 'x', message: 'edit' }],
      ['trigger_workflow', { project_id: p, workflow: 'ci.yml' }],
    ];
    for (const [tool, args] of writeTools) {
      const refused = await callToolOnce(run.testApp.url, theirs, tool, args);
      expect([tool, refused.structured]).toEqual([
        tool,
        expect.objectContaining({ code: 'CODEHOST_PERMISSION_DENIED', codehost_access: 'read', detail: expect.stringMatching(/^in this workspace you may only read/) }),
      ]);
    }
    const viaRoute = await new Http(run.testApp.url, theirs).post(`/projects/${p}/codehost/push-mcp-template`, {});
    expect([viaRoute.status, viaRoute.body.codehost_access]).toEqual([403, 'read']);
    // Reads are theirs to make.
    expect((await callToolOnce(run.testApp.url, theirs, 'list_repo_branches', { project_id: p })).value).toEqual([expect.objectContaining({ name: 'main' })]);
    // Capped at none, they read nothing either.
    await db.query("UPDATE control.memberships SET codehost_access = 'none' WHERE id = $1", [colleague.membershipId]);
    run.testApp.app.get(WebSessions).forgetAccount(colleague.accountId);
    const none = await new Http(run.testApp.url, theirs).get(`/projects/${p}/codehost/branches`);
    expect([none.status, none.body.codehost_access]).toEqual([403, 'none']);
    expect(standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`))).toEqual([]);
    expect(repo.files.size).toBe(0);
    expect(repo.issues).toEqual([]);
    // The linking owner (write) and the workspace's own token (no person behind it) still write.
    expect((await person.http.post(`/projects/${p}/codehost/push-mcp-template`, {})).status).toBe(200);
    expect((await callToolOnce(run.testApp.url, workspaceToken, 'create_issue', { project_id: p, title: 'From the owner' })).value).toMatchObject({ number: expect.any(Number) });
  });

  test('when the person removes the connection, the project says so and its tools answer 409', async () => {
    const person2 = await signIn(run.testApp, freshEmail('leaver'));
    const gone = newToken();
    standIn.tokens.set(gone, 'leaver');
    await run.testApp.app.get(CodehostConnections).save(person2.accountId, 'leaver', ['repo'], gone);
    standIn.addRepo('acme/leaver', { leaver: WRITE });
    const p = await createProject(person2.http, 'Hosted codehost');
    expect((await person2.http.post(`/projects/${p}/codehost/connect`, { repo: 'acme/leaver', account_login: 'leaver' })).status).toBe(200);
    expect((await person2.http.delete('/codehost/connections/leaver')).status).toBe(204);
    const status = await person2.http.get(`/projects/${p}/codehost/status`);
    expect(status.body).toMatchObject({ connected: true, account_login: 'leaver', repository: null, problem: expect.stringMatching(/was removed/) });
    const branches = await person2.http.get(`/projects/${p}/codehost/branches`);
    expect(branches.status).toBe(409);
    expect(branches.body.code).toBe('CODEHOST_CONNECTION_GONE');
  });
});

describe.each(eachBackend().filter(([name]) => name !== 'postgres (hosted)'))('self-hosted: a personal access token sent once (%s)', (_name, backend) => {
  let run: RunningBackend;
  let standIn: CodehostStandIn;

  beforeAll(async () => {
    standIn = await CodehostStandIn.start();
    run = await backend.start({ CODEHOST_API_URL: standIn.url, SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
    await standIn?.close();
  });

  test('the token is stored sealed, never as sent', async () => {
    const token = newToken();
    standIn.tokens.set(token, 'solo');
    standIn.addRepo('solo/sealed', { solo: WRITE });
    const p = await createProject(run.http, 'Self codehost');
    expect((await run.http.post(`/projects/${p}/codehost/connect`, { repo: 'solo/sealed', token })).status).toBe(200);
    const row = await inTenantDb(run.testApp, undefined, (m) => m.findOneByOrFail(ProjectCodehost, { project_id: p }), 'read');
    expect(row).toMatchObject({ repo_owner: 'solo', repo_name: 'sealed', account_login: 'solo', account_id: null });
    expect(row.token_sealed).toEqual(expect.any(String));
    expect(row.token_sealed).not.toContain(token);
    expect(row.token_sealed).not.toContain(token.slice(4, 20));
  });

  test('account_login on GET .../codehost/repos is for hosted mode (400)', async () => {
    const p = await createProject(run.http, 'Self codehost');
    const res = await run.http.get(`/projects/${p}/codehost/repos?account_login=solo`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/^account_login is for hosted mode/);
  });

  test('a token the code host rejects is refused (422) and nothing is linked', async () => {
    standIn.addRepo('solo/rejected', { solo: WRITE });
    const p = await createProject(run.http, 'Self codehost');
    const res = await run.http.post(`/projects/${p}/codehost/connect`, { repo: 'solo/rejected', token: newToken() });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CODEHOST_TOKEN_REJECTED');
    expect((await run.http.get(`/projects/${p}/codehost/status`)).body).toEqual({ connected: false });
  });

  test("an account_login that is not the token's account is refused naming both", async () => {
    const token = newToken();
    standIn.tokens.set(token, 'solo');
    standIn.addRepo('solo/login', { solo: WRITE });
    const p = await createProject(run.http, 'Self codehost');
    const res = await run.http.post(`/projects/${p}/codehost/connect`, { repo: 'solo/login', token, account_login: 'someone' });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('account_login someone is not the account of this token (solo)');
  });

  test('PATCH account replaces the token: later calls use the new one and its account', async () => {
    const first = newToken();
    const second = newToken();
    standIn.tokens.set(first, 'solo');
    standIn.tokens.set(second, 'solo-bot');
    standIn.addRepo('solo/rotate', { solo: WRITE, 'solo-bot': READ });
    const p = await createProject(run.http, 'Self codehost');
    expect((await run.http.post(`/projects/${p}/codehost/connect`, { repo: 'solo/rotate', token: first })).status).toBe(200);
    const patched = await run.http.patch(`/projects/${p}/codehost/account`, { token: second });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ repo: 'solo/rotate', account_login: 'solo-bot', token_source: 'personal_token' });
    expect((await run.http.get(`/projects/${p}/codehost/branches`)).status).toBe(200);
    expect(standIn.requests.filter((r) => r.path === '/repos/solo/rotate/branches').map((r) => r.token)).toEqual([second]);
    const empty = await run.http.patch(`/projects/${p}/codehost/account`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/^token is required/);
  });
});
