import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FORWARDED_RESPONSE_HEADERS, TunnelRequest } from '../../modules/tunnel/tunnel-frames';
import { LocalAnswer, ToolServer } from './tool-server';

/**
 * A tool server the person already runs on their machine behind MCP Streamable HTTP (its URL
 * given on the command line): requests pass through unchanged and its answers, streamed ones
 * included, flow back as they are written. Only that URL is reachable: the request's path is
 * appended below it, never a host or a `..` above it.
 */
export class HttpToolServer implements ToolServer {
  private started = false;
  private error = '';

  constructor(
    readonly prefix: TunnelRequest['prefix'],
    readonly name: string,
    private readonly url: URL,
  ) {}

  get running(): boolean {
    return this.started;
  }

  get lastError(): string {
    return this.error;
  }

  async start(): Promise<void> {
    this.started = true;
  }

  async stop(): Promise<void> {
    this.started = false;
  }

  async tools(): Promise<{ name: string; description?: string }[]> {
    return this.withClient(async (client) => (await client.listTools()).tools.map((t) => ({ name: t.name, description: t.description })));
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.withClient(async (client) => (await client.callTool({ name, arguments: args })) as Record<string, unknown>);
  }

  async handle(request: TunnelRequest, signal: AbortSignal): Promise<LocalAnswer> {
    const [path, query] = request.path.split('?', 2) as [string, string | undefined];
    if (path.split('/').includes('..')) return { status: 400, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ detail: 'path must not contain ".."' }) };
    const target = new URL(this.url);
    target.pathname = `${target.pathname.replace(/\/$/, '')}${path === '/' ? '' : path}`;
    target.search = query ? `?${query}` : '';
    let res: Response;
    try {
      res = await fetch(target, { method: request.method, headers: request.headers, body: request.body ?? undefined, signal, redirect: 'manual' });
    } catch (error) {
      this.error = (error as Error).message;
      return {
        status: 502,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ detail: `the ${this.name} server could not be reached on the connector's machine` }),
      };
    }
    const headers: Record<string, string> = {};
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = res.headers.get(name);
      if (value) headers[name] = value;
    }
    // A stream passes on as it comes; anything else is read whole and sent in one piece.
    const streamed = /text\/event-stream/.test(headers['content-type'] ?? '');
    return { status: res.status, headers, body: streamed && res.body ? res.body : await res.text() };
  }

  private async withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ name: 'baton-connector', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(this.url));
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  }
}
