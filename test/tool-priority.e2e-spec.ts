import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';

async function listing(run: RunningBackend, toolsets?: string, projectId?: string): Promise<string[]> {
  const client = await connectMcp(run.testApp.url, run.token, 'http', toolsets, '/mcp', projectId);
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe.each(eachBackend())('tool_priority_map orders a project’s tool listing on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(() => run?.stop());

  test('named tools first by priority, then whole toolsets by their best tool, then by name; without project_id the order is by name', async () => {
    const p = await createProject(run.http, 'Priorities');
    const saved = await run.http.send('PUT', `/profile-layers/project/${p}`, { fields: { tool_priority_map: { request_hitl: 90, 'claim_*': 60, log_task: 10 } } });
    expect(saved.status).toBe(200);
    const plain = await listing(run);
    expect(plain).toEqual([...plain].sort((a, b) => a.localeCompare(b)));

    const ordered = await listing(run, undefined, p);
    expect(new Set(ordered)).toEqual(new Set(plain));
    expect(ordered.slice(0, 4)).toEqual(['request_hitl', 'claim_file', 'claim_sprint_item', 'log_task']);
    // The HITL toolset comes next as a whole (its best tool has 90), ahead of the unnamed others.
    const hitlTools = ordered.slice(4).filter((t) => t.includes('hitl'));
    expect(ordered.slice(4, 4 + hitlTools.length)).toEqual(hitlTools);

    // Another project without a map lists by name; an unknown project is refused; a malformed id is 400.
    const other = await createProject(run.http, 'No priorities');
    expect(await listing(run, undefined, other)).toEqual(plain);
    await expect(listing(run, undefined, randomUUID())).rejects.toThrow(/project not found/i);
    const bad = await run.http.post('/mcp?project_id=nope', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect([bad.status, bad.body.detail]).toEqual([400, 'project_id must be a UUID']);
  });
});
