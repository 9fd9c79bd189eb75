import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, RunningBackend } from './support/backends';
import { ConnectorProcess, startConnector } from './support/connector';
import { Http } from './support/http';
import { Receiver } from './support/http-receiver';
import { freePort } from './support/processes';
import { tenantClient, TenantClient } from './support/tenant-client';
import { startApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';
import { WebSocket } from 'ws';

const LOCAL_TENANT = '00000000-0000-0000-0000-000000000000';
const OTHER_TENANT = '11111111-2222-4333-8444-555555555555';
const REGISTRY_PAGE = { servers: [{ server: { name: 'io.example/weather', description: 'Weather tools', version: '1.0.0' } }], metadata: { count: 1 } };

describe.each(eachBackend())('the tunnel routes on %s', (_name, setup) => {
  let backend: RunningBackend;
  let http: Http;
  let tenantId: string;
  let other: TenantClient | undefined;
  let registry: Receiver;
  let root: string;
  let connector: ConnectorProcess | undefined;

  beforeAll(async () => {
    registry = await Receiver.start();
    registry.reply = () => REGISTRY_PAGE;
    backend = await setup.start({ SERVICE_MCP_REGISTRY_URL: registry.url, SERVICE_MCP_REGISTRY_TIMEOUT_MS: '300', SERVICE_MCP_REGISTRY_CACHE_SECONDS: '60' });
    http = backend.http;
    tenantId = backend.token ? (await backend.testApp.app.get(TenantResolver).resolve(`Bearer ${backend.token}`)).tenantId : LOCAL_TENANT;
    if (backend.token) other = await tenantClient(backend.testApp, 'other-workspace');
    root = mkdtempSync(join(tmpdir(), 'baton-served-'));
  }, 60_000);

  afterAll(async () => {
    await connector?.stop();
    await backend?.stop();
    await registry?.close();
    rmSync(root, { recursive: true, force: true });
  }, 90_000);

  test('status, launch matrix and diagnostics read only the caller’s own workspace; a bad id is named', async () => {
    const status = await http.get(`/tunnel/status/${tenantId}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ tenant_id: tenantId, connected: false, on_this_instance: false, plugins: [], how_to_connect: expect.stringContaining('baton connect') });
    for (const route of ['status', 'launch-matrix', 'diagnostics']) {
      expect((await http.get(`/tunnel/${route}/${OTHER_TENANT}`)).body).toEqual({ detail: `tenant not found: ${OTHER_TENANT}`, code: expect.any(String) });
      const bad = await http.get(`/tunnel/${route}/not-a-uuid`);
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toContain('tenant_id must be a UUID');
    }
    if (other) {
      expect((await other.http.get(`/tunnel/status/${tenantId}`)).status).toBe(404);
      expect((await other.http.get(`/tunnel/launch-matrix/${tenantId}`)).status).toBe(404);
    }
    const diagnostics = await http.get(`/tunnel/diagnostics/${tenantId}`);
    expect(diagnostics.body).toMatchObject({
      pubsub: expect.objectContaining({ availability: expect.any(String) }),
      tunnel: { socket_on_this_instance: false, cross_instance: 'none', requests_forwarded: 0, requests_in_flight: 0 },
      connector: null,
    });
    const project = await http.post('/projects', { name: 'Launch matrix project' });
    expect(project.status).toBe(201);
    const matrix = await http.get(`/tunnel/launch-matrix/${tenantId}`);
    expect(matrix.body.prefixes).toHaveLength(10);
    const row = matrix.body.projects.find((p: { name: string }) => p.name === 'Launch matrix project');
    expect(row.launch.fs).toEqual({ plugin: 'filesystem', enabled: true, served: 'not_connected', endpoint: `/fs/mcp/${tenantId}` });
    expect(row.launch.ppt).toMatchObject({ plugin: null, served: 'not_connected' });
  });

  test('filesystem roots: added, listed and removed; relative paths, ".." and wrong types refused by name; other workspaces see none of them', async () => {
    for (const [body, detail] of [
      [{ path: 'relative/dir' }, 'path must be an absolute directory path'],
      [{ path: '/home/ada/../root' }, 'path must be an absolute directory path without ".." segments'],
      [{ path: 42 }, 'path must be a string'],
      [{}, 'path is required'],
      [{ path: '/ok', extra: 1 }, 'extra'],
    ] as const) {
      const refused = await http.post('/tunnel/filesystem-roots', body);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain(detail);
    }
    const added = await http.post('/tunnel/filesystem-roots', { path: `${root}/` });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ roots: [root], connected: false, delivered: false });
    expect((await http.post('/tunnel/filesystem-roots', { path: root })).body.roots).toEqual([root]);
    expect((await http.get('/tunnel/filesystem-roots')).body.roots).toEqual([root]);
    if (other) expect((await other.http.get('/tunnel/filesystem-roots')).body.roots).toEqual([]);
    const missing = await http.delete('/tunnel/filesystem-roots', { path: '/not/served' });
    expect(missing.status).toBe(404);
    expect(missing.body.detail).toBe('no served filesystem root /not/served');
    expect((await http.delete('/tunnel/filesystem-roots', { path: root })).body.roots).toEqual([]);
  });

  test('plugins: resolved for the ten prefixes, overrides, custom plugins added and removed, each refusal naming its field', async () => {
    const listed = await http.get('/tunnel/plugins');
    expect(listed.body.plugins).toHaveLength(10);
    expect(listed.body.plugins.find((p: { prefix: string }) => p.prefix === 'fs')).toEqual({
      prefix: 'fs',
      name: 'filesystem',
      source: 'builtin',
      command: 'mcp-server-filesystem',
      enabled: true,
      served: 'not_connected',
      tool_count: 0,
    });
    for (const [body, detail] of [
      [{ overrides: [{ prefix: 'nope', enabled: true }] }, 'prefix must be one of code, dc, debug'],
      [{ overrides: [{ prefix: 'fs', enabled: 'yes' }] }, 'enabled must be a boolean'],
      [{ overrides: 'fs' }, 'overrides must be an array'],
      [
        {
          overrides: [
            { prefix: 'fs', enabled: true },
            { prefix: 'fs', enabled: false },
          ],
        },
        'overrides names the prefix fs twice',
      ],
    ] as const) {
      const refused = await http.send('PUT', '/tunnel/plugins', body);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain(detail);
    }
    const off = await http.send('PUT', '/tunnel/plugins', { overrides: [{ prefix: 'fs', enabled: false }] });
    expect(off.body.overrides).toEqual([{ prefix: 'fs', enabled: false }]);
    expect((await http.send('PUT', '/tunnel/plugins', { overrides: [] })).body.overrides).toEqual([]);

    for (const [body, detail] of [
      [{ name: 'Bad Name', prefix: 'docs' }, 'name must be 1 to 64 lowercase letters'],
      [{ name: 'mydocs', prefix: 'nope' }, 'prefix must be one of'],
      [{ name: 'mydocs', prefix: 'docs', command: 'rm -rf /' }, 'command must be a program name'],
    ] as const) {
      const refused = await http.post('/tunnel/plugins/custom', body);
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain(detail);
    }
    const added = await http.post('/tunnel/plugins/custom', { name: 'mydocs', prefix: 'docs', command: 'my-docs-mcp' });
    expect(added.status).toBe(201);
    expect(added.body.plugins.find((p: { prefix: string }) => p.prefix === 'docs')).toMatchObject({ name: 'mydocs', source: 'custom', command: 'my-docs-mcp' });
    expect((await http.post('/tunnel/plugins/custom', { name: 'mydocs', prefix: 'docs' })).status).toBe(409);
    expect((await http.post('/tunnel/plugins/custom', { name: 'filesystem', prefix: 'docs' })).status).toBe(409);
    if (other) expect((await other.http.get('/tunnel/plugins')).body.custom).toEqual([]);

    const check = await http.get('/tunnel/plugins/check?name=mydocs');
    expect(check.body).toEqual({
      name: 'mydocs',
      prefix: 'docs',
      command: 'my-docs-mcp',
      available: backend.token ? null : false,
      checked_on: backend.token ? 'connector' : 'server',
    });
    expect((await http.get('/tunnel/plugins/check?name=unknown')).status).toBe(404);
    expect((await http.get('/tunnel/plugins/check')).body.detail).toContain('name is required');

    expect((await http.delete('/tunnel/plugins/custom', { name: 'mydocs' })).body.custom).toEqual([]);
    expect((await http.delete('/tunnel/plugins/custom', { name: 'mydocs' })).status).toBe(404);
  });

  test('plugin install runs only on a self-hosted Baton, and only for a built-in plugin', async () => {
    if (backend.token) {
      const refused = await http.post('/tunnel/plugins/install', { name: 'filesystem' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: expect.stringContaining('self-hosted'), code: 'TUNNEL_SELF_HOSTED_ONLY' });
    } else {
      const unknown = await http.post('/tunnel/plugins/install', { name: 'whatever' });
      expect(unknown.status).toBe(404);
      expect(unknown.body.detail).toContain('no built-in plugin named whatever');
    }
    expect((await http.post('/tunnel/plugins/install', { name: '../../bin/sh' })).status).toBe(400);
  });

  test('the registry: proxied, kept for the same query, 502 and 504 details when it fails', async () => {
    const first = await http.get('/tunnel/registry?search=weather&limit=5');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ source: registry.url, cached: false, registry: REGISTRY_PAGE });
    expect(registry.requests.at(-1)?.path).toBe('/v0/servers?search=weather&limit=5');
    const again = await http.get('/tunnel/registry?search=weather&limit=5');
    expect(again.body).toMatchObject({ cached: true, registry: REGISTRY_PAGE });
    expect(registry.at('/v0/servers?search=weather&limit=5')).toHaveLength(1);
    expect((await http.get('/tunnel/registry?limit=500')).body.detail).toContain('limit must be an integer from 1 to 100');

    registry.status = 500;
    const down = await http.get('/tunnel/registry?search=down');
    expect(down.status).toBe(502);
    expect(down.body).toEqual({ detail: 'the MCP registry answered 500: try again later', code: 'TUNNEL_UPSTREAM_FAILED' });
    registry.status = 200;
    registry.reply = () => sleep(2000).then(() => REGISTRY_PAGE);
    const slow = await http.get('/tunnel/registry?search=slow');
    expect(slow.status).toBe(504);
    expect(slow.body).toEqual({ detail: 'the MCP registry did not answer within 0.3 s: try again later', code: 'TUNNEL_TIMEOUT' });
    registry.reply = () => REGISTRY_PAGE;
  });

  test('manifest, refresh and active repo: with no connector a clear answer; with one, its tools and a fresh manifest', async () => {
    expect((await http.get('/tunnel/manifest')).body).toEqual({ connected: false, manifest_at: null, tool_count: 0, tools: [], plugins: [] });
    const refresh = await http.post('/tunnel/refresh', {});
    expect(refresh.status).toBe(409);
    expect(refresh.body.code).toBe('TUNNEL_NO_CONNECTOR');
    expect(refresh.body.detail).toContain('baton connect');
    expect((await http.post('/tunnel/active-repo', { path: 'relative' })).status).toBe(400);
    expect((await http.post('/tunnel/active-repo', { path: root })).body).toEqual({ active_repo: root, delivered: false });

    connector = startConnector(backend.testApp.url, ['--root', root], backend.token ? { BATON_TOKEN: backend.token } : {});
    await waitUntil(async () => (await http.get(`/tunnel/status/${tenantId}`)).body.connected === true, 20_000, 'the tunnel to be connected');
    const refreshed = await http.post('/tunnel/refresh', {});
    expect(refreshed.status).toBe(200);
    expect(refreshed.body).toMatchObject({ refreshed: true, connected: true, plugins: [{ prefix: 'fs', name: 'filesystem', state: 'running' }] });
    expect(refreshed.body.tools).toEqual(expect.arrayContaining([expect.objectContaining({ prefix: 'fs', plugin: 'filesystem', name: 'list_directory' })]));
    const diagnostics = await http.get(`/tunnel/diagnostics/${tenantId}`);
    expect(diagnostics.body.tunnel).toMatchObject({ socket_on_this_instance: true, connected_at: expect.any(String) });
    expect(diagnostics.body.connector).toMatchObject({ roots: [root], allowed_roots: [root], plugins: [{ prefix: 'fs', state: 'running', tool_count: expect.any(Number) }] });
    if (other) {
      expect((await other.http.get('/tunnel/manifest')).body.connected).toBe(false);
      expect((await other.http.post('/tunnel/refresh', {})).status).toBe(409);
    }
    expect((await http.post('/tunnel/active-repo', { path: root })).body).toEqual({ active_repo: root, delivered: true });
  }, 60_000);

  test('a read-only token can neither open the tunnel nor call a tool through it', async () => {
    if (!backend.token) return; // self-hosted has no tokens
    const readOnly = await backend.testApp.app.get(ApiTokens).createToken(tenantId, 'viewer', { scope: 'read' });
    const socket = new WebSocket(`${backend.testApp.url.replace('http', 'ws')}/tunnel/ws`, { headers: { authorization: `Bearer ${readOnly}` } });
    expect(await new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))).toBe(4401);
    const call = await new Http(backend.testApp.url, readOnly).post(`/fs/mcp/${tenantId}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(call.status).toBe(403);
    expect(call.body.code).toBe('READ_ONLY_TOKEN');
  });
});

test('the registry unreachable: 502 that says so', async () => {
  const testApp = await startApp({ SERVICE_MCP_REGISTRY_URL: `http://127.0.0.1:${await freePort()}` });
  try {
    const res = await new Http(testApp.url).get('/tunnel/registry');
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/^the MCP registry could not be reached \(ECONNREFUSED\): try again later$/);
  } finally {
    await testApp.close();
  }
});
