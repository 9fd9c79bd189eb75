import { eachBackend, RunningBackend } from './support/backends';
import { createProject } from './support/projects';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' };

const getProject = (id: unknown, projectId: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'get_project', arguments: { project_id: projectId } } });

/**
 * Stateless `POST /mcp` requests are answered by one MCP server shared by all
 * clients (src/mcp/stateless-mcp.ts): these cases prove that sharing it mixes
 * nothing up, and that it answers exactly what the SDK's own transport answers.
 */
describe.each(eachBackend().filter(([name]) => name !== 'postgres (self-hosted)'))('stateless MCP on one shared server, %s', (_name, start) => {
  let backend: RunningBackend;

  beforeAll(async () => {
    backend = await start.start({ SERVICE_MCP_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await backend?.stop();
  });

  test('concurrent clients using the same request ids each get their own answer, under their own id', async () => {
    const projects = await Promise.all(Array.from({ length: 8 }, (_, i) => createProject(backend.http, `shared server ${i}`)));
    const calls = projects.flatMap((project, i) => [1, 'one', 0].map((id) => ({ project, id, i })));
    const answers = await Promise.all(calls.map(({ project, id }) => backend.http.post('/mcp', getProject(id, project), MCP_HEADERS)));
    answers.forEach((answer, n) => {
      expect(answer.status).toBe(200);
      expect(answer.body.id).toBe(calls[n].id);
      expect(JSON.parse(answer.body.result.content[0].text)).toMatchObject({ id: calls[n].project, name: expect.stringMatching(new RegExp(`^shared server ${calls[n].i}\\b`)) });
    });
  });

  test("a request answered by the shared server reads as the SDK transport's answer to the same request", async () => {
    const project = await createProject(backend.http, 'same answer');
    // A batch (allowed without a protocol version header) always goes to the SDK's transport.
    const { 'mcp-protocol-version': _version, ...batchHeaders } = MCP_HEADERS;
    for (const message of [
      getProject(7, project),
      getProject('x', '00000000-0000-4000-8000-000000000000'),
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_project', arguments: { project_id: project }, task: { ttl: 1000 } } },
      { jsonrpc: '2.0', id: 4, method: 'resources/list' },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } },
    ]) {
      const single = await backend.http.post('/mcp', message, MCP_HEADERS);
      const batch = await backend.http.post('/mcp', [message], batchHeaders);
      expect(single.status).toBe(200);
      expect(single.headers.get('content-type')).toBe(batch.headers.get('content-type'));
      // The SDK's transport answers a batch of one with the one answer, not an array.
      expect(single.body).toEqual(batch.body);
      // Byte for byte, field order included: a tool call is answered without the shared server's routing.
      expect(single.text).toBe(batch.text);
    }
  });

  test('a notification is accepted with 202 and no body; what the shared server does not take gets the SDK transport answers', async () => {
    const notification = await backend.http.post('/mcp', { jsonrpc: '2.0', method: 'notifications/initialized' }, MCP_HEADERS);
    expect(notification.status).toBe(202);
    expect(notification.text).toBe('');
    const badVersion = await backend.http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { ...MCP_HEADERS, 'mcp-protocol-version': '1999-01-01' });
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.error.message).toMatch(/Unsupported protocol version: 1999-01-01/);
    const noAccept = await backend.http.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { accept: 'application/json' });
    expect(noAccept.status).toBe(406);
    const notJsonRpc = await backend.http.post('/mcp', { jsonrpc: '1.0', id: 1, method: 'ping' }, MCP_HEADERS);
    expect(notJsonRpc.status).toBe(400);
    expect(notJsonRpc.body.error.code).toBe(-32700);
    const clientResponse = await backend.http.post('/mcp', { jsonrpc: '2.0', id: 1, result: {} }, MCP_HEADERS);
    expect(clientResponse.status).toBe(202);
  });
});
