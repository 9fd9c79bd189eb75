import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshEmail, signIn, SignedInClient } from './support/accounts';
import { connectToolProxy, ConnectorProcess, startConnector } from './support/connector';
import { Http } from './support/http';
import { csrfOf, PageBrowser, startOAuthApp } from './support/oauth';
import { TestDatabase } from './support/pg-database';
import { freePort, ServerProcess, startServerProcess } from './support/processes';
import { describePostgres } from './support/suites';
import { hostedEnv, provisionTenant, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const LOCAL_TENANT = '00000000-0000-0000-0000-000000000000';

/** The text of a tool call's first content block. */
function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] ?? { text: '' }).text;
}

/** A temporary folder the connector serves, with a file and a subfolder of known names. */
function servedFolder(): string {
  const root = mkdtempSync(join(tmpdir(), 'baton-served-'));
  writeFileSync(join(root, 'notes-from-my-machine.md'), '# mine\n');
  mkdirSync(join(root, 'project-alpha'));
  return root;
}

describePostgres('baton connect on hosted Baton: device sign-in, the filesystem server over the tunnel, another workspace, a restart', () => {
  let db: TestDatabase;
  let helper: TestApp;
  let baton: ServerProcess;
  let port: number;
  let ada: SignedInClient;
  let adaToken: string;
  let bob: { tenant_id: string; token: string };
  let connector: ConnectorProcess;
  let root: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await TestDatabase.create();
    port = await freePort();
    env = hostedEnv(db.url, { APP_URL: `http://127.0.0.1:${port}`, SERVICE_DEVICE_POLL_INTERVAL_SECONDS: '1' });
    // Baton as its own process (so that it can be killed), and an instance of the same
    // workspace data in this process to sign people in the way a sign-in flow's last step does.
    baton = await startServerProcess(env, { timeoutMs: 60_000, port });
    helper = await startOAuthApp(db);
    ada = await signIn(helper, freshEmail('ada'));
    const made = await new Http(baton.url).withHeaders({ cookie: ada.cookie, origin: baton.url }).post('/auth/tokens', { label: 'mcp client' });
    expect(made.status).toBe(201);
    adaToken = made.body.token;
    bob = await provisionTenant(helper, 'bob-workspace');
    root = servedFolder();
  }, 120_000);

  afterAll(async () => {
    await connector?.stop();
    await baton?.stop();
    await helper?.close();
    await db?.drop();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 90_000);

  test('the connector signs in by device flow, and an MCP client lists the served root through /fs/mcp/{tenant}; another workspace gets nothing of it', async () => {
    const ada$ = new Http(baton.url, adaToken);
    const before = await ada$.get(`/tunnel/status/${ada.tenantId}`);
    expect(before.body).toMatchObject({ connected: false, how_to_connect: expect.stringContaining('baton connect') });
    const noTunnel = await ada$.post(`/fs/mcp/${ada.tenantId}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(noTunnel.status).toBe(503);
    expect(noTunnel.body.detail).toContain(`npx baton connect --url ${baton.url}`);

    connector = startConnector(baton.url, ['--root', root]);
    const [, verification, userCode] = await connector.waitFor(/open (\S+)\s+and check that it shows the code ([A-Z]{4}-[A-Z]{4})/);
    const browser = new PageBrowser(baton.url, ada.cookie);
    const page = await browser.get(verification);
    expect(page.text).toContain('Baton tunnel connector');
    await browser.postForm('/activate', { csrf: csrfOf(page.text), user_code: userCode, decision: 'approve' });
    await connector.waitFor(/Approved/);
    await waitUntil(async () => (await ada$.get(`/tunnel/status/${ada.tenantId}`)).body.connected === true, 20_000, 'the tunnel to be connected');

    const client = await connectToolProxy(baton.url, 'fs', ada.tenantId, adaToken);
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(['list_directory', 'read_text_file']));
      const listing = textOf(await client.callTool({ name: 'list_directory', arguments: { path: root } }));
      expect(listing).toContain('[FILE] notes-from-my-machine.md');
      expect(listing).toContain('[DIR] project-alpha');
      // Nothing outside the root the person allowed.
      const outside = await client.callTool({ name: 'list_directory', arguments: { path: tmpdir() } });
      expect(outside.isError).toBe(true);
      expect(textOf(outside)).toMatch(/outside allowed directories|Access denied/i);
    } finally {
      await client.close();
    }

    // Bob's workspace: ada's tunnel answers 404 as an unknown workspace would, and his own has no connector.
    await expect(connectToolProxy(baton.url, 'fs', ada.tenantId, bob.token)).rejects.toThrow(/tenant not found/);
    const bob$ = new Http(baton.url, bob.token);
    const foreign = await bob$.post(`/fs/mcp/${ada.tenantId}`, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_directory', arguments: { path: root } } });
    expect(foreign.status).toBe(404);
    expect(foreign.text).not.toContain('notes-from-my-machine');
    const own = await bob$.post(`/fs/mcp/${bob.tenant_id}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(own.status).toBe(503);
    expect((await bob$.get(`/tunnel/status/${ada.tenantId}`)).status).toBe(404);
    expect((await bob$.get(`/tunnel/manifest`)).body).toMatchObject({ connected: false, tools: [] });
    // No credentials: refused like /mcp.
    expect((await new Http(baton.url).post(`/fs/mcp/${ada.tenantId}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(401);

    // The token is kept for the person only and never printed.
    const stored = JSON.parse(readFileSync(connector.tokenFile, 'utf8')) as { token: string; tenant_id: string };
    expect(stored.tenant_id).toBe(ada.tenantId);
    expect(connector.output()).not.toContain(stored.token);
    expect(baton.output()).not.toContain(stored.token);
  }, 120_000);

  test('killing Baton and starting it again: the connector reconnects by itself and the same call works', async () => {
    process.kill(-(baton.child.pid as number), 'SIGKILL');
    await waitUntil(() => baton.child.exitCode !== null || baton.child.signalCode !== null, 10_000, 'Baton to die');
    await connector.waitFor(/Disconnected from Baton/);
    baton = await startServerProcess(env, { timeoutMs: 60_000, port });
    const ada$ = new Http(baton.url, adaToken);
    await waitUntil(async () => (await ada$.get(`/tunnel/status/${ada.tenantId}`)).body.connected === true, 30_000, 'the connector to reconnect');
    const client = await connectToolProxy(baton.url, 'fs', ada.tenantId, adaToken);
    try {
      expect(textOf(await client.callTool({ name: 'list_directory', arguments: { path: root } }))).toContain('[FILE] notes-from-my-machine.md');
    } finally {
      await client.close();
    }
    // It reused its sign-in: one approval, one code shown.
    expect(connector.output().match(/check that it shows the code/g)).toHaveLength(1);
  }, 120_000);
});

describe('baton connect on self-hosted Baton (SQLite): no sign-in, the local workspace', () => {
  let baton: ServerProcess;
  let connector: ConnectorProcess;
  let root: string;

  beforeAll(async () => {
    baton = await startServerProcess({}, { timeoutMs: 60_000 });
    root = servedFolder();
  }, 90_000);

  afterAll(async () => {
    await connector?.stop();
    await baton?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  }, 90_000);

  test(`an MCP client lists the served root through /fs/mcp/${LOCAL_TENANT}, and roots set in Baton narrow what is served, live`, async () => {
    connector = startConnector(baton.url, ['--root', root]);
    const http = new Http(baton.url);
    await waitUntil(async () => (await http.get(`/tunnel/status/${LOCAL_TENANT}`)).body.connected === true, 20_000, 'the tunnel to be connected');
    expect(connector.output()).not.toMatch(/check that it shows the code/);
    const client = await connectToolProxy(baton.url, 'fs', LOCAL_TENANT);
    try {
      expect(textOf(await client.callTool({ name: 'list_directory', arguments: { path: root } }))).toContain('[DIR] project-alpha');

      const narrowed = await http.post('/tunnel/filesystem-roots', { path: join(root, 'project-alpha') });
      expect(narrowed.status).toBe(201);
      expect(narrowed.body).toMatchObject({ roots: [join(root, 'project-alpha')], served_roots: [join(root, 'project-alpha')], delivered: true });
      expect(textOf(await client.callTool({ name: 'list_allowed_directories', arguments: {} }))).toContain(join(root, 'project-alpha'));
      expect((await client.callTool({ name: 'list_directory', arguments: { path: root } })).isError).toBe(true);

      // A root outside what the person allowed is recorded but never served.
      const wider = await http.post('/tunnel/filesystem-roots', { path: tmpdir() });
      expect(wider.body.served_roots).toEqual([join(root, 'project-alpha')]);
      expect(textOf(await client.callTool({ name: 'list_allowed_directories', arguments: {} }))).not.toContain(`${tmpdir()}\n`);

      const back = await http.delete('/tunnel/filesystem-roots', { path: join(root, 'project-alpha') });
      expect(back.status).toBe(200);
      await http.delete('/tunnel/filesystem-roots', { path: tmpdir() });
      expect(textOf(await client.callTool({ name: 'list_directory', arguments: { path: root } }))).toContain('[FILE] notes-from-my-machine.md');
    } finally {
      await client.close();
    }
  }, 90_000);
});
