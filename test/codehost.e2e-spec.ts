import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CodehostConnections } from '../src/modules/auth-providers/codehost-connections.service';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { freshEmail, setCodehostAccess, signIn } from './support/accounts';
import { BAD_IDS, WRONG_REQUIRED, WRONG_TYPES } from './support/bad-input';
import { eachBackend, RunningBackend } from './support/backends';
import { CodehostStandIn, READ, StandInRepo, WRITE } from './support/codehost-stand-in';
import { Http, HttpResult } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';

const LOGIN = 'octo';

describe.each(eachBackend())('code-host integration on %s', (name, backend) => {
  const hosted = name === 'postgres (hosted)';
  const token = `ghp_${randomUUID().replace(/-/g, '')}`;
  let run: RunningBackend;
  let standIn: CodehostStandIn;
  let http: Http;
  let mcp: Client;
  /** Every answer Baton gave in this suite, to look for the token in the end. */
  const answers: string[] = [];

  beforeAll(async () => {
    standIn = await CodehostStandIn.start();
    standIn.tokens.set(token, LOGIN);
    run = await backend.start({ CODEHOST_API_URL: standIn.url, SERVICE_MCP_RATE_LIMIT: '1000000', SERVICE_LOG_LEVEL: 'debug' });
    let mcpToken: string | undefined;
    if (hosted) {
      const person = await signIn(run.testApp, freshEmail('coder'));
      await run.testApp.app.get(CodehostConnections).save(person.accountId, LOGIN, ['repo'], token);
      await setCodehostAccess(person, 'write');
      mcpToken = await run.testApp.app.get(ApiTokens).createToken(person.tenantId, 'codehost tests');
      http = person.http;
    } else {
      http = run.http;
    }
    mcp = await connectMcp(run.testApp.url, mcpToken, 'http', 'codehost');
  });
  afterAll(async () => {
    await mcp?.close();
    await run?.stop();
    await standIn?.close();
  });

  async function send(p: Promise<HttpResult>): Promise<HttpResult> {
    const res = await p;
    answers.push(res.text);
    return res;
  }
  async function tool(toolName: string, args: Record<string, unknown>) {
    const result = await callTool(mcp, toolName, args);
    answers.push(result.text);
    return result;
  }
  const connectBody = (repo: string) => (hosted ? { repo, account_login: LOGIN } : { repo, token });
  /** A project linked to a new repository of the stand-in where LOGIN has `permissions`. */
  async function connected(permissions = WRITE, extra: Partial<StandInRepo> = {}): Promise<{ p: string; repo: StandInRepo; full: string }> {
    const full = `acme/repo-${randomUUID().slice(0, 8)}`;
    const repo = standIn.addRepo(full, { [LOGIN]: permissions }, extra);
    const p = await createProject(http, 'Codehost');
    const res = await send(http.post(`/projects/${p}/codehost/connect`, connectBody(full)));
    expect(res.status).toBe(200);
    return { p, repo, full };
  }
  const requestsTo = (full: string, rest = '') => standIn.requests.filter((r) => r.path.startsWith(`/repos/${full}${rest}`));
  const writesTo = (full: string) => standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`));

  test('connect links the project; status shows repository, account and permissions, never the token', async () => {
    const p = await createProject(http, 'Codehost');
    expect((await send(http.get(`/projects/${p}/codehost/status`))).body).toEqual({ connected: false });
    standIn.addRepo('Acme/Widgets', { [LOGIN]: READ });
    const res = await send(http.post(`/projects/${p}/codehost/connect`, connectBody('acme/widgets')));
    expect(res.status).toBe(200);
    const status = await send(http.get(`/projects/${p}/codehost/status`));
    expect(status.body).toEqual({
      connected: true,
      repo: 'Acme/Widgets',
      account_login: LOGIN,
      token_source: hosted ? 'connection' : 'personal_token',
      connected_at: expect.any(String),
      updated_at: expect.any(String),
      repository: { full_name: 'Acme/Widgets', private: true, default_branch: 'main', permissions: { admin: false, push: false, pull: true } },
      problem: null,
    });
    expect((await tool('get_codehost_status', { project_id: p })).value).toEqual(status.body);
  });

  test('branches are gathered across pages (Link rel="next")', async () => {
    const branches = Array.from({ length: 250 }, (_, i) => `feature/b-${String(i).padStart(3, '0')}`);
    const { p, full } = await connected(READ, { branches });
    const res = await send(http.get(`/projects/${p}/codehost/branches`));
    expect(res.status).toBe(200);
    expect(res.body.map((b: { name: string }) => b.name)).toEqual(branches);
    expect(requestsTo(full, '/branches').map((r) => r.query.get('page') ?? '1')).toEqual(['1', '2', '3']);
    const viaTool = await tool('list_repo_branches', { project_id: p });
    expect(viaTool.value).toHaveLength(250);
  });

  test('the repositories of the account are gathered across pages; repo-image names the owner picture', async () => {
    for (let i = 0; i < 120; i++) standIn.addRepo(`many/r-${randomUUID().slice(0, 6)}`, { [LOGIN]: READ });
    const { p, full } = await connected(READ);
    const repos = await send(http.get(`/projects/${p}/codehost/repos`));
    expect(repos.status).toBe(200);
    const names: string[] = repos.body.map((r: { full_name: string }) => r.full_name);
    expect(names.length).toBeGreaterThanOrEqual(121);
    expect(names).toContain(full);
    const image = await send(http.get(`/projects/${p}/repo-image`));
    expect(image.body).toEqual({ repo: full, image_url: 'https://avatars.example/acme.png' });
  });

  test('rate-limit answers (429 with Retry-After, 403 with x-ratelimit-reset) are waited out and retried', async () => {
    const { p, full } = await connected(READ, { branches: ['main', 'dev'] });
    standIn.rateLimitNext(1, 429, { 'retry-after': '1' });
    const started = Date.now();
    const first = await send(http.get(`/projects/${p}/codehost/branches`));
    expect(first.status).toBe(200);
    expect(first.body.map((b: { name: string }) => b.name)).toEqual(['main', 'dev']);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    // The refused attempt and the one after it.
    expect(requestsTo(full, '/branches')).toHaveLength(2);
    const before = requestsTo(full, '/branches').length;
    standIn.rateLimitNext(2, 403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000)) });
    expect((await send(http.get(`/projects/${p}/codehost/branches`))).status).toBe(200);
    // Two refused attempts, then the one answered.
    expect(requestsTo(full, '/branches').length - before).toBe(3);
  });

  test('a rate limit longer than Baton waits answers 429 with retry_after_seconds at once', async () => {
    const { p } = await connected(READ);
    standIn.rateLimitNext(1, 429, { 'retry-after': '3600' });
    const started = Date.now();
    const res = await send(http.get(`/projects/${p}/codehost/branches`));
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'CODEHOST_RATE_LIMITED', retry_after_seconds: 3600 });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('without push permission, patch_file, trigger_workflow, create_issue and push-mcp-template are refused and send no write', async () => {
    const { p, repo, full } = await connected(READ);
    repo.files.set('README.md', 'hello\n');
    const refusals = [
      await tool('patch_file', { project_id: p, path: 'README.md', content: 'changed', message: 'Change it' }),
      await tool('trigger_workflow', { project_id: p, workflow: 'ci.yml' }),
      await tool('create_issue', { project_id: p, title: 'A bug' }),
    ];
    for (const r of refusals) {
      expect(r.isError).toBe(true);
      expect(r.structured).toMatchObject({ code: 'CODEHOST_PERMISSION_DENIED', detail: expect.stringMatching(/octo may not .* push \(write\) permission.*nothing was changed/) });
    }
    const template = await send(http.post(`/projects/${p}/codehost/push-mcp-template`, {}));
    expect(template.status).toBe(403);
    expect(template.body.code).toBe('CODEHOST_PERMISSION_DENIED');
    expect(writesTo(full)).toEqual([]);
    expect(repo.files.get('README.md')).toBe('hello\n');
    expect(repo.issues).toEqual([]);
    expect(repo.dispatches).toEqual([]);
  });

  test('with push permission the writes happen: a file committed and read back, a workflow dispatched, an issue opened', async () => {
    const { p, repo } = await connected(WRITE);
    repo.files.set('docs/notes.md', 'first\n');
    const read = await tool('read_repo_file', { project_id: p, path: 'docs/notes.md' });
    expect(read.value).toMatchObject({ path: 'docs/notes.md', content: 'first\n', sha: expect.stringMatching(/^[0-9a-f]{40}$/) });
    const patched = await tool('patch_file', { project_id: p, path: 'docs/notes.md', content: 'second\n', message: 'Update notes', expected_sha: read.value.sha });
    expect(patched.isError).toBe(false);
    expect(patched.value).toMatchObject({ path: 'docs/notes.md', branch: 'main', created: false });
    expect(repo.files.get('docs/notes.md')).toBe('second\n');
    const stale = await tool('patch_file', { project_id: p, path: 'docs/notes.md', content: 'third\n', message: 'Again', expected_sha: read.value.sha });
    expect(stale.structured).toMatchObject({ code: 'CODEHOST_FILE_CHANGED' });
    expect(repo.files.get('docs/notes.md')).toBe('second\n');
    const created = await tool('patch_file', { project_id: p, path: 'new.txt', content: 'new', message: 'Add new.txt', branch: 'dev' });
    expect(created.value).toMatchObject({ created: true, branch: 'dev' });
    const run1 = await tool('trigger_workflow', { project_id: p, workflow: 'ci.yml', inputs: { level: 'full' } });
    expect(run1.value).toEqual({ workflow: 'ci.yml', ref: 'main', dispatched: true });
    expect(repo.dispatches).toEqual([{ workflow: 'ci.yml', ref: 'main', inputs: { level: 'full' } }]);
    const issue = await tool('create_issue', { project_id: p, title: 'Flaky test', body: 'It fails on Tuesdays', labels: ['bug'] });
    expect(issue.value).toMatchObject({ number: 1, title: 'Flaky test' });
    expect(repo.issues).toEqual([{ number: 1, title: 'Flaky test', body: 'It fails on Tuesdays', labels: ['bug'] }]);
  });

  test('create_issue is refused when the repository has issues turned off; nothing is sent', async () => {
    const { p, repo, full } = await connected(WRITE, { has_issues: false });
    const r = await tool('create_issue', { project_id: p, title: 'A bug' });
    expect(r.structured).toMatchObject({ code: 'CODEHOST_REFUSED' });
    expect(writesTo(full)).toEqual([]);
    expect(repo.issues).toEqual([]);
  });

  test("push-mcp-template commits .mcp.json naming Baton's /mcp and no token; a second push updates it", async () => {
    const { p, repo } = await connected(WRITE);
    const res = await send(http.post(`/projects/${p}/codehost/push-mcp-template`, {}));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ path: '.mcp.json', branch: 'main', created: true });
    const file = JSON.parse(repo.files.get('.mcp.json') ?? '{}');
    expect(file.mcpServers.baton.url).toBe(`${run.testApp.config.baseUrl.replace(/\/$/, '')}/mcp`);
    expect(repo.files.get('.mcp.json')).not.toContain(token);
    if (hosted) expect(file.mcpServers.baton.headers).toEqual({ Authorization: 'Bearer ${BATON_API_TOKEN}' });
    const again = await send(http.post(`/projects/${p}/codehost/push-mcp-template`, { path: 'config/mcp.json', branch: 'dev', message: 'MCP' }));
    expect(again.body).toMatchObject({ path: 'config/mcp.json', branch: 'dev', created: true });
    expect((await send(http.post(`/projects/${p}/codehost/push-mcp-template`, {}))).body.created).toBe(false);
  });

  test('list_workflow_runs answers the newest runs, narrowed by branch', async () => {
    const runs = [
      { id: 3, name: 'CI', head_branch: 'main', status: 'completed', conclusion: 'success' },
      { id: 2, name: 'CI', head_branch: 'dev', status: 'completed', conclusion: 'failure' },
    ];
    const { p } = await connected(READ, { runs });
    const all = await tool('list_workflow_runs', { project_id: p });
    expect(all.value.map((r: { id: number }) => r.id)).toEqual([3, 2]);
    const dev = await tool('list_workflow_runs', { project_id: p, branch: 'dev', limit: 5 });
    expect(dev.value).toEqual([{ id: 2, name: 'CI', branch: 'dev', status: 'completed', conclusion: 'failure', html_url: null, created_at: null }]);
  });

  test('disconnect forgets the link: status is not connected, the tools answer 409; disconnecting again is 204', async () => {
    const { p } = await connected(WRITE);
    expect((await send(http.delete(`/projects/${p}/codehost/disconnect`))).status).toBe(204);
    expect((await send(http.get(`/projects/${p}/codehost/status`))).body).toEqual({ connected: false });
    const branches = await send(http.get(`/projects/${p}/codehost/branches`));
    expect(branches.status).toBe(409);
    expect(branches.body.code).toBe('CODEHOST_NOT_CONNECTED');
    expect((await tool('patch_file', { project_id: p, path: 'a', content: 'b', message: 'c' })).structured).toMatchObject({ code: 'CODEHOST_NOT_CONNECTED' });
    expect((await send(http.patch(`/projects/${p}/codehost/account`, hosted ? { account_login: LOGIN } : { token }))).status).toBe(409);
    expect((await send(http.delete(`/projects/${p}/codehost/disconnect`))).status).toBe(204);
  });

  test('bad input is refused with a detail naming the field, and nothing is linked', async () => {
    standIn.addRepo('acme/bad-input', { [LOGIN]: WRITE });
    const p = await createProject(http, 'Codehost');
    const cases: [unknown, RegExp][] = [
      [{}, /repo/],
      [{ ...connectBody('acme/bad-input'), repo: 'no-slash' }, /repo must be "owner\/name"/],
      [{ ...connectBody('acme/bad-input'), repo: 'acme/..' }, /repo must be/],
      [{ ...connectBody('acme/bad-input'), repo: '../etc/passwd' }, /repo must be/],
      [{ ...connectBody('acme/bad-input'), extra: 1 }, /extra/],
      [{ ...connectBody('acme/bad-input'), token: 'has space' }, hosted ? /token/ : /token must be printable/],
      [{ ...connectBody('acme/bad-input'), account_login: 'a/b' }, /account_login must be a code-host account name/],
      [{ repo: 'acme/bad-input' }, hosted ? /account_login is required/ : /token is required/],
      ...WRONG_REQUIRED.map((v): [unknown, RegExp] => [{ ...connectBody('acme/bad-input'), repo: v }, /repo/]),
      ...WRONG_TYPES.map((v): [unknown, RegExp] => [{ ...connectBody('acme/bad-input'), account_login: v }, /account_login/]),
      ...WRONG_TYPES.map((v): [unknown, RegExp] => [{ ...connectBody('acme/bad-input'), token: v }, /token/]),
    ];
    for (const [body, detail] of cases) {
      const res = await send(http.post(`/projects/${p}/codehost/connect`, body));
      expect({ body, status: res.status, detail: res.body?.detail }).toEqual({ body, status: 400, detail: expect.stringMatching(detail) });
    }
    expect((await send(http.get(`/projects/${p}/codehost/status`))).body).toEqual({ connected: false });
    for (const bad of [{ path: '../x' }, { path: '/etc/passwd' }, { path: 'a', ref: 'x..y' }, { path: 7 }]) {
      const r = await tool('read_repo_file', { project_id: p, ...bad });
      expect(r.isError).toBe(true);
    }
    for (const bad of [{ workflow: 'a b' }, { workflow: 'ci.yml', inputs: { x: 1 } }, { workflow: 'ci.yml', inputs: [] }]) {
      expect((await tool('trigger_workflow', { project_id: p, ...bad })).isError).toBe(true);
    }
    for (const id of BAD_IDS.slice(0, 4)) {
      const res = await send(http.get(`/projects/${encodeURIComponent(id)}/codehost/status`));
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/project_id/);
    }
    const unknown = randomUUID();
    for (const res of [
      await send(http.get(`/projects/${unknown}/codehost/status`)),
      await send(http.post(`/projects/${unknown}/codehost/connect`, connectBody('acme/bad-input'))),
      await send(http.delete(`/projects/${unknown}/codehost/disconnect`)),
      await send(http.get(`/projects/${unknown}/repo-image`)),
    ]) {
      expect(res.status).toBe(404);
    }
    expect(writesTo('acme/bad-input')).toEqual([]);
  });

  test('a repository the account cannot see is refused with 404 and nothing is linked', async () => {
    const p = await createProject(http, 'Codehost');
    standIn.addRepo('acme/secret', { someone: WRITE });
    const res = await send(http.post(`/projects/${p}/codehost/connect`, connectBody('acme/secret')));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'CODEHOST_NOT_FOUND', detail: expect.stringMatching(/repository acme\/secret/) });
    expect((await send(http.get(`/projects/${p}/codehost/status`))).body).toEqual({ connected: false });
  });

  test('the token appears in no answer and no log line', () => {
    expect(answers.length).toBeGreaterThan(50);
    expect(answers.filter((a) => a.includes(token))).toEqual([]);
    expect(run.testApp.logs.filter((l) => l.includes(token))).toEqual([]);
    // The stand-in did receive it: the search above looks for the right thing.
    expect(standIn.requests.some((r) => r.token === token)).toBe(true);
  });
});
