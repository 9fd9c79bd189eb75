import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';

const FILES = { files: [{ path: 'package.json' }, { path: 'src/index.ts' }] };

describe.each(eachBackend())('code_intel_enabled on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(() => run?.stop());

  test('on by default; false (at the project or from the workspace) makes the codebase map route and tool answer a clear refusal', async () => {
    const p = await createProject(run.http, 'Code intel');
    expect((await run.http.get(`/projects/${p}/settings`)).body.code_intel_enabled).toBe(true);
    expect((await run.http.post(`/projects/${p}/codebase-map`, FILES)).status).toBe(201);

    expect((await run.http.patch(`/projects/${p}/settings`, { code_intel_enabled: false })).status).toBe(200);
    const refused = await run.http.post(`/projects/${p}/codebase-map`, FILES);
    expect([refused.status, refused.body.code]).toEqual([403, 'CODE_INTEL_DISABLED']);
    expect(refused.body.detail).toBe(`code intelligence is off for project ${p} (code_intel_enabled is false in its settings or profile): the codebase map is not recorded`);
    const mcp = await connectMcp(run.testApp.url, run.token, 'http', 'knowledge');
    try {
      const tool = await callTool(mcp, 'map_codebase', { project_id: p, ...FILES });
      expect([tool.isError, tool.structured?.code]).toEqual([true, 'CODE_INTEL_DISABLED']);
    } finally {
      await mcp.close();
    }

    // Turned off for the whole workspace: every project without its own setting is refused.
    const other = await createProject(run.http, 'Workspace off');
    expect((await run.http.send('PUT', '/profile-layers/workspace/singleton', { fields: { code_intel_enabled: false } })).status).toBe(200);
    try {
      expect((await run.http.post(`/projects/${other}/codebase-map`, FILES)).status).toBe(403);
      expect((await run.http.patch(`/projects/${other}/settings`, { code_intel_enabled: true })).status).toBe(200);
      expect((await run.http.post(`/projects/${other}/codebase-map`, FILES)).status).toBe(201);
    } finally {
      await run.http.delete('/profile-layers/workspace/singleton');
    }
  });
});
