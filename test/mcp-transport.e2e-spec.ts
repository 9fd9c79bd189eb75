import { request } from 'node:http';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

describe('MCP transports on a self-hosted instance', () => {
  let testApp: TestApp;
  let http: Http;

  beforeAll(async () => {
    testApp = await startApp();
    http = new Http(testApp.url);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('the legacy SSE transport serves the same tools as Streamable HTTP', async () => {
    const sse = await connectMcp(testApp.url, undefined, 'sse');
    try {
      const created = await callTool(sse, 'create_project', { name: 'over SSE' });
      expect(created.isError).toBe(false);
      expect((await http.get(`/projects/${created.value.id}`)).body.name).toBe('over SSE');
      const names = (await sse.listTools()).tools.map((t) => t.name).sort();
      const http2 = await connectMcp(testApp.url);
      expect((await http2.listTools()).tools.map((t) => t.name).sort()).toEqual(names);
      await http2.close();
    } finally {
      await sse.close();
    }
  });

  test('a foreign Host or Origin is refused with 403 (DNS-rebinding protection); local ones pass', async () => {
    // fetch() may not set Host, so this one goes through node:http, as a rebinding page's request would arrive.
    const evilHost = await rawPost(testApp.url + '/mcp', JSON.stringify(INIT), { ...MCP_HEADERS, host: 'evil.example', 'content-type': 'application/json' });
    expect(evilHost.status).toBe(403);
    expect(JSON.parse(evilHost.body).detail).toMatch(/Host evil.example is not allowed/);
    const evilOrigin = await http.post('/mcp', INIT, { ...MCP_HEADERS, origin: 'http://evil.example' });
    expect(evilOrigin.status).toBe(403);
    expect(evilOrigin.body.detail).toMatch(/Origin/);
    expect((await http.get('/mcp/sse', { origin: 'https://attacker.test' })).status).toBe(403);
    const local = await http.post('/mcp', INIT, { ...MCP_HEADERS, origin: 'http://localhost:7878' });
    expect(local.status).toBe(200);
    expect(local.body.result.serverInfo.name).toBe('baton');
  });

  test('the Origin check compares scheme, host and port: another port or https is another site', async () => {
    const port = new URL(testApp.url).port;
    for (const origin of ['http://127.0.0.1:9999', `https://127.0.0.1:${port}`, 'http://127.0.0.1']) {
      const res = await http.post('/mcp', INIT, { ...MCP_HEADERS, origin });
      expect([origin, res.status]).toEqual([origin, 403]);
      expect(res.body.detail).toBe(`Origin ${origin} is not allowed for MCP`);
    }
    for (const origin of [`http://127.0.0.1:${port}`, `http://LOCALHOST.:${port}`, `http://[::1]:${port}`]) {
      expect([origin, (await http.post('/mcp', INIT, { ...MCP_HEADERS, origin })).status]).toEqual([origin, 200]);
    }
  });

  test('a JSON-RPC batch runs under a protocol version with batching and is refused under 2025-06-18 and later', async () => {
    const batch = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/list', params: {} }));
    const old = await http.post('/mcp', batch, { ...MCP_HEADERS, 'mcp-protocol-version': '2025-03-26' });
    expect(old.status).toBe(200);
    expect(old.body.map((r: { id: number }) => r.id).sort()).toEqual([1, 2]);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const refused = await http.post('/mcp', batch, { ...MCP_HEADERS, 'mcp-protocol-version': version });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringMatching(/no JSON-RPC batching/) } });
    }
    // One message per request is fine under any version.
    expect((await http.post('/mcp', batch[0], { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' })).status).toBe(200);
  });

  test('GET and DELETE /mcp answer 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await http.send(method, '/mcp', undefined, MCP_HEADERS);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(res.body.detail).toMatch(/stateless/);
    }
  });

  test('posting to an unknown SSE session answers 404 {detail}', async () => {
    const res = await http.post('/mcp/sse?sessionId=not-a-session', INIT);
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/SSE session/);
  });

  test('OPTIONS /mcp/sse answers the CORS preflight', async () => {
    const res = await http.send('OPTIONS', '/mcp/sse', undefined, { origin: 'http://localhost:7878', 'access-control-request-method': 'POST' });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:7878');
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
  });

  test('/tools, /mcp/tools-doc and /mcp/quickstart are generated from the tool registry', async () => {
    const tools = (await http.get('/tools')).body as { name: string; input_schema: { properties: object } }[];
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['create_project', 'list_projects', 'rename_project']));
    expect(tools.find((t) => t.name === 'rename_project')?.input_schema.properties).toHaveProperty('project_id');
    const doc = await http.get('/mcp/tools-doc');
    expect(doc.headers.get('content-type')).toMatch(/text\/markdown/);
    for (const name of names) expect(doc.text).toContain(`## ${name}`);
    expect(doc.text).toMatch(/\| project_id \| string \(uuid\) \| yes \|/);
    const quick = await http.get('/mcp/quickstart');
    // No APP_URL: the address the server really listens on (a free port here), not the default :7878.
    expect(quick.text).toContain(`Endpoint: \`${testApp.url}/mcp\``);
    expect(quick.text).toContain(`${testApp.url}/mcp/tools-doc`);
    expect(quick.text).not.toContain('localhost:7878');
    expect(quick.text).not.toContain('Authorization');
  });

  test('an unknown tool is a JSON-RPC error, not a crash', async () => {
    const client = await connectMcp(testApp.url);
    try {
      await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(/unknown tool/);
    } finally {
      await client.close();
    }
  });
});

describePostgres('MCP SSE sessions in hosted mode', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test("an SSE session serves only its own tenant; another tenant's token cannot post into it", async () => {
    const a = await tenantClient(testApp, 'sse-a');
    const b = await tenantClient(testApp, 'sse-b');
    const stream = await fetch(`${testApp.url}/mcp/sse`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let buffered = '';
    while (!buffered.includes('sessionId=')) buffered += new TextDecoder().decode((await reader.read()).value);
    const sessionId = buffered.match(/sessionId=([0-9a-f-]+)/)![1];
    const intruder = await b.http.post(`/mcp/sse?sessionId=${sessionId}`, INIT);
    expect(intruder.status).toBe(404);
    const owner = await a.http.post(`/mcp/sse?sessionId=${sessionId}`, INIT);
    expect(owner.status).toBe(202);
    expect((await new Http(testApp.url).get('/mcp/sse')).status).toBe(401);
    await reader.cancel();

    const quick = await new Http(testApp.url).get('/mcp/quickstart');
    expect(quick.text).toContain('Bearer sk_service_YOUR_TOKEN');
  });
});

function rawPost(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let data = '';
      res.on('data', (d) => (data += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
