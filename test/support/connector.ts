import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './processes';
import { waitUntil } from './wait';

export interface ConnectorProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Waits until its output matches `pattern` and answers the match. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Where it keeps its sign-in. */
  tokenFile: string;
  stop(): Promise<void>;
}

/**
 * `baton connect` (the built `dist/src/cli/baton.js`) as a child process, as a person runs it:
 * `args` are its arguments after `connect`; its home and configuration folders are temporary.
 */
export function startConnector(url: string, args: string[], env: Record<string, string> = {}): ConnectorProcess {
  const home = mkdtempSync(join(tmpdir(), 'baton-connector-'));
  const tokenFile = join(home, 'token.json');
  const child = spawn(process.execPath, ['dist/src/cli/baton.js', 'connect', '--url', url, '--token-file', tokenFile, '--max-backoff-ms', '1000', ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  return {
    child,
    output: () => out,
    tokenFile,
    async waitFor(pattern, timeoutMs = 20_000) {
      let match: RegExpMatchArray | null = null;
      await waitUntil(() => (match = pattern.exec(out)) !== null || child.exitCode !== null, timeoutMs).catch(() => undefined);
      if (!match) throw new Error(`the connector never printed ${pattern}:\n${out}`);
      return match;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The SDK's MCP client on a tool proxy, `/{prefix}/mcp/{tenant_id}`. */
export async function connectToolProxy(baseUrl: string, prefix: string, tenantId: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'baton-tests', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`/${prefix}/mcp/${tenantId}`, baseUrl), { requestInit: { headers } }));
  return client;
}

export interface ToolStandIn {
  /** http://127.0.0.1:<port>: each path below it is a tool server of its own name. */
  url: string;
  close(): Promise<void>;
}

/**
 * Streamable HTTP MCP servers on loopback, as a person may run beside the connector: under each
 * path, a server whose tool `where` answers that path, and whose answers are streamed (SSE, with a
 * progress notification before the result) rather than one JSON body.
 */
export async function startToolStandIn(): Promise<ToolStandIn> {
  const { McpServer } = await import('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = await import('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { createServer } = await import('node:http');
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const server = new McpServer({ name: `stand-in${path}`, version: '1.0.0' });
      server.registerTool('where', { description: 'names the path this server answers on' }, async (extra) => {
        const token = extra._meta?.progressToken;
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
        return { content: [{ type: 'text', text: `served at ${path}` }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void server.close());
      void server.connect(transport).then(() => transport.handleRequest(req, res, raw ? JSON.parse(raw) : undefined));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
