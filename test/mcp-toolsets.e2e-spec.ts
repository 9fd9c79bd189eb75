import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../src/config/app-config';
import { McpToolsets } from '../src/mcp/mcp-toolsets.service';
import { ToolRegistry } from '../src/mcp/tool-registry.service';
import { DOMAIN_TOOLSETS, TOOLSET_NAMES } from '../src/mcp/toolsets';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool } from './support/mcp-client';
import { CORE_TOOLS } from './support/core-tools';
import { waitUntil } from './support/wait';

const CORE = [...CORE_TOOLS].sort();

/** What a default listing may weigh, in bytes of JSON: it is read into the assistant's context on every connect. */
const CORE_LISTING_BUDGET = 12 * 1024;

const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/** An SDK client on `/mcp` or `/mcp/sse` with a query string and extra headers. */
async function connect(backend: RunningBackend, { path = '/mcp', query = '', headers = {} as Record<string, string> } = {}): Promise<Client> {
  const all: Record<string, string> = { ...headers, ...(backend.token ? { authorization: `Bearer ${backend.token}` } : {}) };
  const url = new URL(`${path}${query}`, backend.testApp.url);
  const client = new Client({ name: 'baton-tests', version: '1.0.0' });
  if (path === '/mcp') await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: all } }));
  else {
    await client.connect(
      new SSEClientTransport(url, {
        requestInit: { headers: all },
        eventSourceInit: { fetch: (u, init) => fetch(u, { ...init, headers: { ...(init?.headers as Record<string, string>), ...all } }) },
      }),
    );
  }
  return client;
}

async function listing(client: Client): Promise<{ names: string[]; bytes: number }> {
  const { tools } = await client.listTools();
  return { names: tools.map((t) => t.name).sort(), bytes: Buffer.byteLength(JSON.stringify(tools)) };
}

const backends = eachBackend().filter(([name]) => name !== 'postgres (self-hosted)');

describe.each(backends)('MCP toolsets on %s', (_name, start) => {
  let backend: RunningBackend;
  let registered: string[];
  const clients: Client[] = [];
  const open = async (options?: Parameters<typeof connect>[1]) => {
    const client = await connect(backend, options);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    // The suite opens many connections; the hosted MCP budget (100 calls a minute) is not what it tests.
    backend = await start.start({ SERVICE_MCP_RATE_LIMIT: '100000' });
    registered = backend.testApp.app
      .get(ToolRegistry)
      .list()
      .map((t) => t.name)
      .sort();
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await backend?.stop();
  });

  test('the default listing is core, within its size budget', async () => {
    const { names, bytes } = await listing(await open());
    expect(names).toEqual(CORE);
    // eslint-disable-next-line no-console -- the figure is read in the suite's output
    console.log(`tools/list JSON size: core ${bytes} bytes (budget ${CORE_LISTING_BUDGET})`);
    expect(bytes).toBeLessThanOrEqual(CORE_LISTING_BUDGET);
  });

  test('?toolsets=all lists every registered tool; the tiers are printed with their sizes', async () => {
    const all = await listing(await open({ query: '?toolsets=all' }));
    expect(all.names).toEqual(registered);
    const standard = await listing(await open({ query: '?toolsets=standard' }));
    expect(standard.names).toEqual(expect.arrayContaining(CORE));
    expect(standard.names.length).toBeGreaterThan(CORE.length);
    expect(standard.names.length).toBeLessThan(registered.length);
    const core = await listing(await open({ query: '?toolsets=core' }));
    expect(core.names).toEqual(CORE);
    // eslint-disable-next-line no-console -- the figures are read in the suite's output
    console.log(
      `tools/list JSON size: core ${core.bytes} bytes (${core.names.length} tools), standard ${standard.bytes} bytes (${standard.names.length}), all ${all.bytes} bytes (${all.names.length})`,
    );
  });

  test('a domain toolset lists its own tools; X-MCP-Toolsets selects like the query', async () => {
    const sprint = DOMAIN_TOOLSETS.find((t) => t.name === 'sprint')?.tools ?? [];
    expect((await listing(await open({ query: '?toolsets=sprint' }))).names).toEqual([...sprint].sort());
    const byHeader = await listing(await open({ headers: { 'X-MCP-Toolsets': 'core, Sprint' } }));
    expect(byHeader.names).toEqual([...new Set([...CORE, ...sprint])].sort());
    // The URL wins over the header.
    expect((await listing(await open({ query: '?toolsets=sprint', headers: { 'X-MCP-Toolsets': 'all' } }))).names).toEqual([...sprint].sort());
  });

  test('an unknown toolset name is a 400 naming it and the valid ones, on /mcp and /mcp/sse', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const viaQuery = await backend.http.post('/mcp?toolsets=core,sprnt', init, MCP_HEADERS);
    expect(viaQuery.status).toBe(400);
    expect(viaQuery.body.detail).toMatch(/unknown toolset "sprnt"/);
    for (const name of TOOLSET_NAMES) expect(viaQuery.body.detail).toContain(name);
    const viaHeader = await backend.http.post('/mcp', init, { ...MCP_HEADERS, 'x-mcp-toolsets': 'everything' });
    expect(viaHeader.status).toBe(400);
    expect(viaHeader.body.detail).toMatch(/unknown toolset "everything"; valid toolsets: core, standard, all/);
    const sse = await backend.http.get('/mcp/sse?toolsets=nope');
    expect(sse.status).toBe(400);
    expect(sse.body.detail).toMatch(/unknown toolset "nope"/);
  });

  test('a tool outside the listing can still be called', async () => {
    const client = await open();
    expect((await listing(client)).names).not.toContain('create_project');
    const created = await callTool(client, 'create_project', { name: 'unlisted call' });
    expect(created.isError).toBe(false);
    expect((await backend.http.get(`/projects/${created.value.id}`)).body.name).toBe('unlisted call');
  });

  test('list_toolsets tells what this connection lists', async () => {
    const { value } = await callTool(await open({ query: '?toolsets=core,goals' }), 'list_toolsets');
    expect(value.selected).toEqual(['core', 'goals']);
    const byName = new Map<string, { enabled: boolean; tool_count: number; description: string }>(value.toolsets.map((t: { name: string }) => [t.name, t]));
    expect([...byName.keys()]).toEqual([...TOOLSET_NAMES]);
    expect(byName.get('core')).toMatchObject({ enabled: true, tool_count: CORE.length });
    expect(byName.get('goals')?.enabled).toBe(true);
    expect(byName.get('sprint')?.enabled).toBe(false);
    expect(byName.get('all')).toMatchObject({ enabled: false, tool_count: registered.length });
    for (const toolset of byName.values()) expect(toolset.description.length).toBeGreaterThan(10);
  });

  test('enable_toolset on /mcp/sse widens the listing and sends tools/list_changed', async () => {
    const client = await open({ path: '/mcp/sse' });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    expect((await listing(client)).names).toEqual(CORE);
    const enabled = await callTool(client, 'enable_toolset', { toolset: 'goals' });
    expect(enabled.isError).toBe(false);
    expect(enabled.value.added_tools.sort()).toEqual([...(DOMAIN_TOOLSETS.find((t) => t.name === 'goals')?.tools ?? [])].sort());
    await waitUntil(() => changed === 1, 5000, 'tools/list_changed');
    const after = await listing(client);
    expect(after.names).toEqual(expect.arrayContaining([...CORE, 'get_goal', 'set_goal_mode']));
    expect(after.names).toHaveLength(CORE.length + enabled.value.added_tools.length);
    const status = await callTool(client, 'list_toolsets');
    expect(status.value.toolsets.find((t: { name: string }) => t.name === 'goals').enabled).toBe(true);
    // Enabling it again changes nothing and tells nothing.
    expect((await callTool(client, 'enable_toolset', { toolset: 'goals' })).value.added_tools).toEqual([]);
    // Another SSE connection keeps its own listing.
    expect((await listing(await open({ path: '/mcp/sse' }))).names).toEqual(CORE);
    expect(changed).toBe(1);
  });

  test('enable_toolset on stateless /mcp answers the tools with their schemas, and says how to keep them', async () => {
    const client = await open();
    const enabled = await callTool(client, 'enable_toolset', { toolset: 'messages' });
    expect(enabled.isError).toBe(false);
    expect(enabled.value.added_tools).toEqual(['ack_messages']);
    expect(enabled.value.tools).toEqual([expect.objectContaining({ name: 'ack_messages', inputSchema: expect.objectContaining({ type: 'object' }) })]);
    expect(enabled.value.note).toMatch(/\?toolsets=/);
    expect((await listing(client)).names).toEqual(CORE);
    const unknown = await callTool(client, 'enable_toolset', { toolset: 'everything' });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/toolset must be one of core, standard, all/);
  });
});

describe('MCP toolset definitions', () => {
  test('every registered tool is in exactly one domain toolset, and every toolset names registered tools', async () => {
    const [, start] = eachBackend()[0];
    const backend = await start.start();
    try {
      const registered = new Set(
        backend.testApp.app
          .get(ToolRegistry)
          .list()
          .map((t) => t.name),
      );
      expect(backend.testApp.app.get(McpToolsets).coverageProblem()).toBeUndefined();
      const named = DOMAIN_TOOLSETS.flatMap((t) => t.tools ?? []);
      expect(named.filter((name) => !registered.has(name))).toEqual([]);
      expect(named).toHaveLength(registered.size);
    } finally {
      await backend.stop();
    }
  });

  test('SERVICE_MCP_TOOLSETS sets the default listing; an unknown name stops the start', () => {
    expect(loadConfig({ SERVICE_DATA_DIR: '/tmp' }).mcpToolsets).toEqual(['core']);
    expect(loadConfig({ SERVICE_DATA_DIR: '/tmp', SERVICE_MCP_TOOLSETS: 'standard, sprint_planning' }).mcpToolsets).toEqual(['standard', 'sprint_planning']);
    expect(() => loadConfig({ SERVICE_DATA_DIR: '/tmp', SERVICE_MCP_TOOLSETS: 'core,sprnt' })).toThrow(/SERVICE_MCP_TOOLSETS unknown toolset "sprnt"; valid toolsets: core/);
  });
});
