import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type JSONRPCMessage, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { TunnelRequest } from '../../modules/tunnel/tunnel-frames';
import { LocalAnswer, ToolServer } from './tool-server';

type Json = Record<string, unknown>;
const CALL_TIMEOUT_MS = 110_000;

/**
 * A local MCP server spoken to over stdio (a child process), answering MCP Streamable HTTP
 * requests that arrive through the tunnel, in stateless JSON mode. The child is initialised once,
 * by the connector; each remote client's `initialize` is answered from that, and the ids of its
 * requests are renumbered so that many clients can share the one child.
 */
export class StdioToolServer implements ToolServer {
  private transport: StdioClientTransport | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, (message: Json) => void>();
  private initResult: Json | undefined;
  private stderrTail = '';

  constructor(
    readonly prefix: TunnelRequest['prefix'],
    readonly name: string,
    private readonly command: string,
    private readonly args: string[],
    private readonly env: Record<string, string> = {},
  ) {}

  async start(): Promise<void> {
    const transport = new StdioClientTransport({
      command: this.command,
      args: this.args,
      stderr: 'pipe',
      // Only what a program needs to run: the connector's own secrets (its token) stay out.
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...this.env },
    });
    transport.stderr?.on('data', (d: Buffer) => (this.stderrTail = (this.stderrTail + d.toString()).slice(-2000)));
    transport.onmessage = (message) => this.onMessage(message as unknown as Json);
    transport.onclose = () => {
      for (const resolve of this.waiting.values()) resolve({ error: { code: -32000, message: `the ${this.name} server exited` } });
      this.waiting.clear();
      this.transport = undefined;
    };
    await transport.start();
    this.transport = transport;
    const init = await this.call('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'baton-connector', version: '1' } });
    if (init.error) throw new Error(`${this.name} did not initialise: ${JSON.stringify(init.error)}`);
    this.initResult = init.result as Json;
    await transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
  }

  get running(): boolean {
    return this.transport !== undefined && this.initResult !== undefined;
  }

  get lastError(): string {
    return this.stderrTail.trim().split('\n').slice(-2).join(' ').slice(0, 300);
  }

  async stop(): Promise<void> {
    const transport = this.transport;
    this.transport = undefined;
    this.initResult = undefined;
    await transport?.close();
  }

  async tools(): Promise<{ name: string; description?: string }[]> {
    const tools: { name: string; description?: string }[] = [];
    let cursor: string | undefined;
    do {
      const answer = await this.call('tools/list', cursor ? { cursor } : {});
      const result = (answer.result ?? {}) as { tools?: { name: string; description?: string }[]; nextCursor?: string };
      tools.push(...(result.tools ?? []).map((t) => ({ name: t.name, description: t.description })));
      cursor = result.nextCursor;
    } while (cursor && tools.length < 1000);
    return tools;
  }

  /** Calls one of its tools for the connector itself (set_active_repo). */
  async callTool(name: string, args: Json): Promise<Json> {
    return this.call('tools/call', { name, arguments: args });
  }

  async handle(request: TunnelRequest): Promise<LocalAnswer> {
    if (request.method !== 'POST') return json(405, { detail: 'this tool server is stateless: send JSON-RPC requests with POST (no standalone event stream)' }, { allow: 'POST' });
    if (!this.running) return json(503, { detail: `the ${this.name} server is not running on the connector${this.lastError ? `: ${this.lastError}` : ''}` });
    let body: unknown;
    try {
      body = JSON.parse(request.body ?? '');
    } catch {
      return json(400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' }, id: null });
    }
    const messages = (Array.isArray(body) ? body : [body]) as Json[];
    const answers = (await Promise.all(messages.map((m) => this.answer(m)))).filter((a): a is Json => a !== undefined);
    if (answers.length === 0) return { status: 202, headers: {}, body: '' };
    return json(200, Array.isArray(body) ? answers : answers[0]);
  }

  private async answer(message: Json): Promise<Json | undefined> {
    if (!message || typeof message !== 'object' || message.jsonrpc !== '2.0') return { jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null };
    const { id, method } = message;
    if (typeof method !== 'string') return undefined; // a response to a request of ours: there are none
    if (id === undefined) {
      // Notifications: the child was initialised by the connector; others pass on.
      if (method !== 'notifications/initialized' && method !== 'notifications/cancelled') await this.transport?.send(message as unknown as JSONRPCMessage);
      return undefined;
    }
    if (method === 'initialize') {
      const asked = (message.params as Json | undefined)?.protocolVersion;
      const protocolVersion = typeof asked === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(asked) ? asked : LATEST_PROTOCOL_VERSION;
      return { jsonrpc: '2.0', id, result: { ...this.initResult, protocolVersion } };
    }
    if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
    const reply = await this.call(method, message.params as Json | undefined);
    return { jsonrpc: '2.0', id, ...(reply.error ? { error: reply.error } : { result: reply.result }) };
  }

  private call(method: string, params?: Json): Promise<Json> {
    const transport = this.transport;
    if (!transport) return Promise.resolve({ error: { code: -32000, message: `the ${this.name} server is not running` } });
    const id = this.nextId++;
    return new Promise<Json>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve({ error: { code: -32001, message: `the ${this.name} server did not answer within ${CALL_TIMEOUT_MS / 1000} s` } });
      }, CALL_TIMEOUT_MS);
      this.waiting.set(id, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      transport.send({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) } as JSONRPCMessage).catch((error: Error) => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve({ error: { code: -32000, message: error.message } });
      });
    });
  }

  private onMessage(message: Json): void {
    if (typeof message.method === 'string') {
      // The child asks something of its client (ping, roots, sampling): only ping is offered.
      if (message.id !== undefined) {
        const reply = message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: 'Method not found' } };
        void this.transport?.send({ jsonrpc: '2.0', id: message.id, ...reply } as JSONRPCMessage);
      }
      return;
    }
    const id = message.id as number;
    const resolve = this.waiting.get(id);
    if (!resolve) return;
    this.waiting.delete(id);
    resolve(message);
  }
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): LocalAnswer {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) };
}
