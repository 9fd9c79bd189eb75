import { freshEmail, signIn } from './support/accounts';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

describe.each(eachBackend())('team summary and connection help on %s', (name, backend) => {
  let run: RunningBackend;
  const hosted = name.includes('hosted') && !name.includes('self');

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('GET /settings/mcp-config: the /mcp URL of this server, in a snippet to paste; a token placeholder only when hosted', async () => {
    const res = await run.http.get('/settings/mcp-config');
    expect(res.status).toBe(200);
    const url = res.body.url as string;
    expect(url).toMatch(/^http:\/\/[^/]+\/mcp$/);
    expect(res.body).toMatchObject({ url, sse_url: `${url}/sse`, transport: 'streamable-http', auth: hosted ? 'bearer' : 'none' });
    expect(res.body.client_config.mcpServers.baton).toEqual({ type: 'http', url, ...(hosted ? { headers: { Authorization: 'Bearer <your sk_service_ API token>' } } : {}) });
    expect(res.body.claude_code_command).toContain(`claude mcp add --transport http baton ${url}`);
    if (run.token) expect(res.text).not.toContain(run.token);
  });

  test('GET /config/api-key needs no credential and says whether a key is needed', async () => {
    const res = await new Http(run.testApp.url).get('/config/api-key');
    expect(res.status).toBe(200);
    if (hosted) expect(res.body).toMatchObject({ required: true, prefix: 'sk_service_', create: { method: 'POST', url: expect.stringMatching(/\/auth\/tokens$/) } });
    else expect(res.body).toEqual({ required: false, prefix: null, detail: expect.stringMatching(/no API key/), create: null });
  });

  test('GET /team/summary counts projects by status and the sessions now active', async () => {
    const a = await createProject(run.http, 'Summary A');
    await createProject(run.http, 'Summary B');
    expect((await run.http.patch(`/projects/${a}/organization`, { status: 'parked' })).status).toBe(200);
    expect((await run.http.post('/sessions/register', { project_id: a })).status).toBe(201);
    expect((await run.http.post('/sessions/register', { project_id: a })).status).toBe(201);
    const res = await run.http.get('/team/summary');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ members: [], projects: { total: 2, active: 1, parked: 1, archived: 0 }, active_sessions: 2, projects_with_active_sessions: 1 });
  });
});

describe.each(hostedBackend())('team summary across workspaces on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("a signed-in member sees their workspace's people; another workspace sees none of its projects; no credential is 401", async () => {
    const person = await signIn(run.testApp, freshEmail('lead'));
    await createProject(person.http, 'Lead project');
    const mine = await person.http.get('/team/summary');
    expect(mine.body.members).toEqual([{ email: expect.stringMatching(/^lead/), name: null, role: 'owner', status: 'active' }]);
    expect(mine.body.projects.total).toBe(1);

    const other = await tenantClient(run.testApp, 'other-team');
    expect((await other.http.get('/team/summary')).body).toMatchObject({ members: [], projects: { total: 0 }, active_sessions: 0 });
    for (const path of ['/team/summary', '/settings/mcp-config']) expect((await new Http(run.testApp.url).get(path)).status).toBe(401);
  });
});
