import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TUNNEL_PREFIXES } from '../src/modules/tunnel/tunnel-frames';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, RunningBackend } from './support/backends';
import { connectToolProxy, ConnectorProcess, startConnector, startToolStandIn, ToolStandIn } from './support/connector';
import { Http } from './support/http';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { tenantClient, TenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';
import { WebSocket } from 'ws';

const LOCAL_TENANT = '00000000-0000-0000-0000-000000000000';

async function tenantOf(backend: RunningBackend): Promise<string> {
  if (!backend.token) return LOCAL_TENANT;
  return (await backend.testApp.app.get(TenantResolver).resolve(`Bearer ${backend.token}`)).tenantId;
}

describe.each(eachBackend())('the ten tool proxies on %s', (_name, setup) => {
  let backend: RunningBackend;
  let tenantId: string;
  let standIn: ToolStandIn;
  let connector: ConnectorProcess | undefined;

  beforeAll(async () => {
    backend = await setup.start();
    tenantId = await tenantOf(backend);
    standIn = await startToolStandIn();
  }, 60_000);

  afterAll(async () => {
    await connector?.stop();
    await standIn?.close();
    await backend?.stop();
  }, 90_000);

  test('with no connector: each prefix answers a CORS preflight, and a 503 that says how to connect to GET and POST', async () => {
    for (const prefix of TUNNEL_PREFIXES) {
      for (const path of [`/${prefix}/mcp/${tenantId}`, `/${prefix}/mcp/${tenantId}/deeper/path`]) {
        const preflight = await fetch(`${backend.testApp.url}${path}`, {
          method: 'OPTIONS',
          // A page of Baton's own origin (APP_URL), as a browser client served by Baton sends it.
          headers: {
            origin: backend.testApp.config.baseUrl,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
          },
        });
        expect(preflight.status).toBe(204);
        expect(preflight.headers.get('access-control-allow-origin')).toBe(backend.testApp.config.baseUrl);
        expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
        expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization.*Content-Type.*Mcp-Protocol-Version/);
        const post = await backend.http.post(path, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
        expect(post.status).toBe(503);
        expect(post.body).toEqual({ detail: expect.stringContaining(`npx baton connect --url ${backend.testApp.config.baseUrl}`), code: 'TUNNEL_NOT_CONNECTED' });
        expect((await backend.http.get(path)).status).toBe(503);
      }
    }
    // A preflight from another site is refused, as on /mcp.
    const foreign = await fetch(`${backend.testApp.url}/fs/mcp/${tenantId}`, { method: 'OPTIONS', headers: { origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    expect((await backend.http.post(`/nope/mcp/${tenantId}`, {})).status).toBe(404);
  });

  test('every prefix reaches its own tool server through the connector, and streamed answers arrive as streamed', async () => {
    const plugins = TUNNEL_PREFIXES.flatMap((prefix) => ['--plugin', `${prefix}=${standIn.url}/${prefix}-server`]);
    connector = startConnector(backend.testApp.url, plugins, backend.token ? { BATON_TOKEN: backend.token } : {});
    await waitUntil(async () => (await backend.http.get(`/tunnel/status/${tenantId}`)).body.connected === true, 20_000, 'the tunnel to be connected');
    for (const prefix of TUNNEL_PREFIXES) {
      const client = await connectToolProxy(backend.testApp.url, prefix, tenantId, backend.token);
      try {
        const progress: number[] = [];
        const result = await client.callTool({ name: 'where', arguments: {} }, undefined, { onprogress: (p) => progress.push(p.progress) });
        expect(result.content).toEqual([{ type: 'text', text: `served at /${prefix}-server` }]);
        // The progress notification came on the stream before the result.
        expect(progress).toEqual([1]);
      } finally {
        await client.close();
      }
    }
    const raw = await fetch(`${backend.testApp.url}/docs/mcp/${tenantId}`, {
      method: 'POST',
      headers: { ...(backend.token ? { authorization: `Bearer ${backend.token}` } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toMatch(/text\/event-stream/);
    expect(await raw.text()).toMatch(/^event: message\ndata: .*"where"/m);
    const manifest = await backend.http.get('/tunnel/manifest');
    expect(manifest.body).toMatchObject({ connected: true, tool_count: TUNNEL_PREFIXES.length });
    expect(manifest.body.tools.map((t: { prefix: string }) => t.prefix).sort()).toEqual([...TUNNEL_PREFIXES].sort());
  }, 90_000);

  test('the workspace switches a prefix off (PUT /tunnel/plugins): the connector stops serving it, and back on', async () => {
    const off = await backend.http.send('PUT', '/tunnel/plugins', { overrides: [{ prefix: 'ppt', enabled: false }] });
    expect(off.status).toBe(200);
    expect(off.body.plugins.find((p: { prefix: string }) => p.prefix === 'ppt')).toMatchObject({ enabled: false, served: 'not_configured_on_connector' });
    const refused = await backend.http.post(`/ppt/mcp/${tenantId}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' });
    expect(refused.status).toBe(404);
    expect(refused.body.detail).toContain('serves no ppt tool server');
    const on = await backend.http.send('PUT', '/tunnel/plugins', { overrides: [] });
    expect(on.body.plugins.find((p: { prefix: string }) => p.prefix === 'ppt')).toMatchObject({ enabled: true, served: 'running' });
  }, 60_000);
});

describeRedis('a tool proxy request that reaches an instance without the socket', () => {
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let ada: TenantClient;
  let bob: TenantClient;
  let connector: ConnectorProcess;
  let root: string;

  beforeAll(async () => {
    db = await TestDatabase.create();
    const env = hostedEnv(db.url, { SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('tunnel') });
    a = await startApp(env);
    b = await startApp(env);
    ada = await tenantClient(a, 'ada');
    bob = await tenantClient(a, 'bob');
    root = mkdtempSync(join(tmpdir(), 'baton-served-'));
    writeFileSync(join(root, 'across-instances.txt'), 'hi\n');
  }, 60_000);

  afterAll(async () => {
    await connector?.stop();
    await a?.close();
    await b?.close();
    await db?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 90_000);

  test('is relayed through Redis to the instance that holds the socket, answers and settings included; none left: 503', async () => {
    connector = startConnector(a.url, ['--root', root], { BATON_TOKEN: ada.token });
    const adaOnB = new Http(b.url, ada.token);
    await waitUntil(async () => (await adaOnB.get(`/tunnel/status/${ada.tenant_id}`)).body.connected === true, 20_000, 'B to see the tunnel');
    expect((await adaOnB.get(`/tunnel/status/${ada.tenant_id}`)).body).toMatchObject({ connected: true, on_this_instance: false });
    expect((await ada.http.get(`/tunnel/status/${ada.tenant_id}`)).body).toMatchObject({ connected: true, on_this_instance: true });

    const client = await connectToolProxy(b.url, 'fs', ada.tenant_id, ada.token);
    try {
      const listing = (await client.callTool({ name: 'list_directory', arguments: { path: root } })) as { content: { text: string }[] };
      expect(listing.content[0].text).toContain('[FILE] across-instances.txt');
    } finally {
      await client.close();
    }
    // Bob, on B too, reaches nothing of it.
    const bobOnB = new Http(b.url, bob.token);
    expect((await bobOnB.post(`/fs/mcp/${ada.tenant_id}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(404);
    expect((await bobOnB.post(`/fs/mcp/${bob.tenant_id}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(503);
    // A setting changed through B reaches the connector on A.
    const rooted = await adaOnB.post('/tunnel/filesystem-roots', { path: root });
    expect(rooted.body).toMatchObject({ delivered: true });
    expect((await adaOnB.get('/tunnel/diagnostics/' + ada.tenant_id)).body.tunnel).toMatchObject({
      socket_on_this_instance: false,
      cross_instance: 'redis_relay',
      requests_relayed_from_this_instance: expect.any(Number),
    });

    await connector.stop();
    await waitUntil(async () => (await adaOnB.get(`/tunnel/status/${ada.tenant_id}`)).body.connected === false, 20_000, 'B to see the tunnel gone');
    expect((await adaOnB.post(`/fs/mcp/${ada.tenant_id}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(503);
  }, 90_000);
});

describe('the tunnel socket itself (self-hosted, no credentials)', () => {
  let testApp: TestApp;
  let connector: ConnectorProcess | undefined;
  let standIn: ToolStandIn;

  beforeAll(async () => {
    testApp = await startApp();
    standIn = await startToolStandIn();
  });

  afterAll(async () => {
    await connector?.stop();
    await standIn?.close();
    await testApp?.close();
  }, 90_000);

  test('a web page (any Origin) cannot open it: closed 4403 before it is heard, and the tunnel stays as it was', async () => {
    connector = startConnector(testApp.url, ['--plugin', `docs=${standIn.url}/mine`]);
    const http = new Http(testApp.url);
    await waitUntil(async () => (await http.get(`/tunnel/status/${LOCAL_TENANT}`)).body.connected === true, 20_000, 'the tunnel to be connected');
    for (const origin of ['https://evil.example', testApp.url]) {
      const page = new WebSocket(`${testApp.url.replace('http', 'ws')}/tunnel/ws`, { headers: { origin } });
      page.on('open', () => page.send(JSON.stringify({ t: 'hello', version: 'x', plugins: [], roots: [], allowed_roots: [] })));
      const code = await new Promise<number>((resolve) => page.on('close', (c) => resolve(c)));
      expect(code).toBe(4403);
      page.terminate();
    }
    const client = await connectToolProxy(testApp.url, 'docs', LOCAL_TENANT);
    try {
      expect((await client.callTool({ name: 'where', arguments: {} })).content).toEqual([{ type: 'text', text: 'served at /mine' }]);
    } finally {
      await client.close();
    }
  }, 60_000);

  test('a second connector of the same workspace takes over; the first is told why and exits', async () => {
    const second = startConnector(testApp.url, ['--plugin', `docs=${standIn.url}/second`]);
    try {
      await connector!.waitFor(/Another connector of this workspace took over the tunnel: this one stops/);
      await waitUntil(() => connector!.child.exitCode !== null, 10_000, 'the first connector to exit');
      expect(connector!.child.exitCode).toBe(0);
      const client = await connectToolProxy(testApp.url, 'docs', LOCAL_TENANT);
      try {
        expect((await client.callTool({ name: 'where', arguments: {} })).content).toEqual([{ type: 'text', text: 'served at /second' }]);
      } finally {
        await client.close();
      }
    } finally {
      await second.stop();
    }
  }, 60_000);
});
