import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Agent as HttpAgent, IncomingMessage, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FORWARDED_RESPONSE_HEADERS, TunnelRequest } from '../../modules/tunnel/tunnel-frames';
import { LocalAnswer, ToolServer } from './tool-server';

/**
 * A tool server the person already runs on their machine behind MCP Streamable HTTP (its URL
 * given on the command line): requests pass through unchanged and its answers, streamed ones
 * included, flow back as they are written. Only that URL is reachable: the request's path is
 * appended below it, never a host or a `..` above it. Requests go over node:http with connections
 * kept alive (one agent per server): fetch's web streams cost more than the relay itself.
 */
export class HttpToolServer implements ToolServer {
  private started = false;
  private error = '';
  private readonly agent: HttpAgent;

  constructor(
    readonly prefix: TunnelRequest['prefix'],
    readonly name: string,
    private readonly url: URL,
  ) {
    this.agent = url.protocol === 'https:' ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
  }

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
    this.agent.destroy();
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
    let res: IncomingMessage;
    try {
      res = await this.send(target, request, signal);
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
      const value = res.headers[name];
      if (typeof value === 'string' && value) headers[name] = value;
      else if (Array.isArray(value) && value.length) headers[name] = value.join(', ');
    }
    // A stream passes on as it comes; anything else is read whole and sent in one piece.
    const streamed = /text\/event-stream/.test(headers['content-type'] ?? '');
    return { status: res.statusCode ?? 502, headers, body: streamed ? res : await readText(res) };
  }

  /** One request to the tool server; resolves with its answer once the head is in (redirects are not followed). */
  private send(target: URL, request: TunnelRequest, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const body = request.body === null ? undefined : Buffer.from(request.body, 'utf8');
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(target, {
        method: request.method,
        headers: body ? { ...request.headers, 'content-length': String(body.length) } : request.headers,
        agent: this.agent,
        signal,
      });
      req.once('response', resolve);
      req.once('error', reject);
      req.end(body);
    });
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

function readText(res: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    res.on('data', (part: Buffer) => parts.push(part));
    res.once('end', () => resolve(parts.length === 1 ? parts[0].toString('utf8') : Buffer.concat(parts).toString('utf8')));
    res.once('error', reject);
  });
}
