import { randomUUID } from 'node:crypto';
import { runWithTenant } from '../libs/tenancy';
import { RealtimeEvents } from '../src/common/events/realtime-events';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, RunningBackend } from './support/backends';
import { closeSocket, dashboardSocket } from './support/dashboard-socket';
import { callTool, connectMcp } from './support/mcp-client';
import { sleep, waitUntil } from './support/wait';

describe.each(eachBackend())('projects on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('POST /projects creates a project and answers 201 with id, name, created_at', async () => {
    const res = await run.http.post('/projects', { name: 'Alpha' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Alpha',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      icon: null,
      organization_status: 'active',
      parent_id: null,
    });
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    const got = await run.http.get(`/projects/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('a duplicate name answers 409 whatever its case and spacing, and stores nothing', async () => {
    const first = await run.http.post('/projects', { name: 'Beta Project' });
    const dup = await run.http.post('/projects', { name: '  beta   PROJECT ' });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toMatch(/already exists/);
    expect(dup.body.existing_project_id).toBe(first.body.id);
    const all = await run.http.get('/projects');
    expect(all.body.filter((p: { name: string }) => p.name.toLowerCase() === 'beta project')).toHaveLength(1);
  });

  test('GET /projects/{id} answers 404 {detail} for an unknown id and 400 for a malformed one', async () => {
    const missing = await run.http.get(`/projects/${randomUUID()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toMatch(/project not found/);
    const bad = await run.http.get('/projects/not-a-uuid');
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('project_id must be a UUID');
  });

  test('by-name matches a substring without regard to case, preferring an exact match', async () => {
    await run.http.post('/projects', { name: 'Gamma Service' });
    await run.http.post('/projects', { name: 'gamma' });
    const exact = await run.http.get('/projects/by-name/GAMMA');
    expect(exact.status).toBe(200);
    expect(exact.body.name).toBe('gamma');
    const partial = await run.http.get('/projects/by-name/ma%20serv');
    expect(partial.body.name).toBe('Gamma Service');
    const wildcard = await run.http.get('/projects/by-name/%25');
    expect(wildcard.status).toBe(404);
    expect((await run.http.get('/projects/by-name/nothing-like-this')).status).toBe(404);
  });

  test('rename changes the name, refuses a taken one with 409, and answers 404 for an unknown id', async () => {
    const a = (await run.http.post('/projects', { name: 'Delta' })).body;
    await run.http.post('/projects', { name: 'Epsilon' });
    const renamed = await run.http.post(`/projects/${a.id}/rename`, { name: 'Delta Two' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: a.id, name: 'Delta Two' });
    expect((await run.http.get(`/projects/${a.id}`)).body.name).toBe('Delta Two');
    const taken = await run.http.post(`/projects/${a.id}/rename`, { name: 'epsilon' });
    expect(taken.status).toBe(409);
    expect((await run.http.get(`/projects/${a.id}`)).body.name).toBe('Delta Two');
    const caseOnly = await run.http.post(`/projects/${a.id}/rename`, { name: 'DELTA TWO' });
    expect(caseOnly.status).toBe(200);
    expect((await run.http.post(`/projects/${randomUUID()}/rename`, { name: 'Zeta' })).status).toBe(404);
  });

  test('DELETE /projects/{id} answers 204, then 404; the project is gone from the list', async () => {
    const p = (await run.http.post('/projects', { name: 'Doomed' })).body;
    const del = await run.http.delete(`/projects/${p.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await run.http.get(`/projects/${p.id}`)).status).toBe(404);
    expect((await run.http.delete(`/projects/${p.id}`)).status).toBe(404);
    const list = await run.http.get('/projects');
    expect(list.body.map((x: { id: string }) => x.id)).not.toContain(p.id);
  });

  test('DELETE /projects deletes several by id and reports the ids it did not find', async () => {
    const x = (await run.http.post('/projects', { name: 'Batch X' })).body;
    const y = (await run.http.post('/projects', { name: 'Batch Y' })).body;
    const keep = (await run.http.post('/projects', { name: 'Batch Keep' })).body;
    const ghost = randomUUID();
    const res = await run.http.delete('/projects', { ids: [x.id, y.id, ghost] });
    expect(res.status).toBe(200);
    expect(res.body.deleted.sort()).toEqual([x.id, y.id].sort());
    expect(res.body.not_found).toEqual([ghost]);
    const ids = (await run.http.get('/projects')).body.map((p: { id: string }) => p.id);
    expect(ids).toContain(keep.id);
    expect(ids).not.toContain(x.id);
    expect(ids).not.toContain(y.id);
    expect((await run.http.delete('/projects', { ids: [] })).status).toBe(400);
    expect((await run.http.delete('/projects', { ids: ['nope'] })).status).toBe(400);
  });

  test('GET /projects lists every project ordered by name', async () => {
    const names = (await run.http.get('/projects')).body.map((p: { name: string }) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  test('an MCP client initializes, lists the project tools, and a project it creates is visible over REST', async () => {
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'projects');
    try {
      expect(client.getServerVersion()?.name).toBe('baton');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['list_projects', 'create_project', 'get_project', 'rename_project', 'delete_project']));
      const created = await callTool(client, 'create_project', { name: 'Made Over MCP' });
      expect(created.isError).toBe(false);
      const rest = await run.http.get(`/projects/${created.value.id}`);
      expect(rest.status).toBe(200);
      expect(rest.body.name).toBe('Made Over MCP');
      const listed = await callTool(client, 'list_projects');
      expect(listed.value.map((p: { id: string }) => p.id)).toContain(created.value.id);
    } finally {
      await client.close();
    }
  });

  test('a tool failure is an isError result with the same detail as the REST route', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await run.http.post('/projects', { name: 'Taken Name' });
      const rest = await run.http.post('/projects', { name: 'taken name' });
      const tool = await callTool(client, 'create_project', { name: 'taken name' });
      expect(tool.isError).toBe(true);
      expect(tool.text).toBe(rest.body.detail);
      expect(tool.structured?.code).toBe('PROJECT_NAME_TAKEN');

      const restBad = await run.http.post('/projects', { name: 42 });
      const toolBad = await callTool(client, 'create_project', { name: 42 });
      expect(toolBad.isError).toBe(true);
      expect(toolBad.text).toBe(restBad.body.detail);

      const unknownId = randomUUID();
      const restMissing = await run.http.get(`/projects/${unknownId}`);
      const toolMissing = await callTool(client, 'get_project', { project_id: unknownId });
      expect(toolMissing.text).toBe(restMissing.body.detail);
      const extra = await callTool(client, 'get_project', { project_id: unknownId, sneaky: true });
      expect(extra.isError).toBe(true);
      expect(extra.text).toMatch(/unknown field sneaky/);
    } finally {
      await client.close();
    }
  });

  test('rename and delete over MCP act on the same data as REST', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const p = (await run.http.post('/projects', { name: 'Tool Target' })).body;
      const renamed = await callTool(client, 'rename_project', { project_id: p.id, name: 'Tool Target Renamed' });
      expect(renamed.value.name).toBe('Tool Target Renamed');
      expect((await run.http.get(`/projects/${p.id}`)).body.name).toBe('Tool Target Renamed');
      const deleted = await callTool(client, 'delete_project', { project_id: p.id });
      expect(deleted.value).toEqual({ deleted: p.id });
      expect((await run.http.get(`/projects/${p.id}`)).status).toBe(404);
    } finally {
      await client.close();
    }
  });

  test('rename broadcasts project_renamed to a connected dashboard WebSocket', async () => {
    const p = (await run.http.post('/projects', { name: 'Watched' })).body;
    const { ws, frames } = await dashboardSocket(run.testApp.url, run.token);
    try {
      await run.http.post(`/projects/${p.id}/rename`, { name: 'Watched Renamed' });
      await waitUntil(() => frames.some((f) => f.event === 'project_renamed'), 5000, 'project_renamed on the dashboard');
      expect(frames.find((f) => f.event === 'project_renamed')).toEqual({
        event: 'project_renamed',
        data: { project_id: p.id, old_name: 'Watched', name: 'Watched Renamed' },
      });
    } finally {
      await closeSocket(ws);
    }
  });

  test("a change is written into a dashboard frame once, and only while one of the workspace's dashboards is open", async () => {
    const tenant = await run.testApp.app.get(TenantResolver).resolve(run.token ? `Bearer ${run.token}` : undefined);
    const bus = run.testApp.app.get(RealtimeEvents);
    let written = 0;
    // The data of a change, counted each time it is written into JSON.
    const data = (project_id: string) => ({ project_id, toJSON: () => (written++, { project_id }) });
    const publish = (project_id: string) => runWithTenant(tenant, () => bus.publish({ tenantId: tenant.tenantId, event: 'knowledge_changed', data: data(project_id) }));
    publish('nobody-watching');
    await sleep(100);
    expect(written).toBe(0);

    const first = await dashboardSocket(run.testApp.url, run.token);
    const second = await dashboardSocket(run.testApp.url, run.token);
    try {
      publish('watched');
      const arrived = (frames: { event: string; data: any }[]) => frames.some((f) => f.event === 'knowledge_changed' && f.data.project_id === 'watched');
      await waitUntil(() => arrived(first.frames) && arrived(second.frames), 5000, 'the frame on both dashboards');
      expect(written).toBe(1);
    } finally {
      await Promise.all([closeSocket(first.ws), closeSocket(second.ws)]);
    }
  });
});
