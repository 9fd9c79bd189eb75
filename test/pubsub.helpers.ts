import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import Redis from 'ioredis';
import WebSocket from 'ws';
import { freePort } from './support/processes';

/** A unique channel and key prefix, so suites sharing one Redis never see each other's traffic. */
export function uniquePrefix(name: string): string {
  return `baton-test-${name}-${randomBytes(4).toString('hex')}`;
}

export async function waitUntil<T>(check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs: number, what = 'condition'): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/**
 * A private redis-server on a free port, spawned and stopped by the test (the
 * shared Redis at 6379 is never stopped). `stop` kills it; `start` brings it
 * back on the same port.
 */
export class OwnRedis {
  private child?: ChildProcess;
  private constructor(readonly port: number) {}

  static async start(): Promise<OwnRedis> {
    const redis = new OwnRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: 'ignore',
    });
    await waitUntil(() => this.ping(), 10_000, `redis-server on ${this.port}`);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = undefined;
  }

  /** Runs one command against this server (e.g. CLIENT PAUSE). */
  async command(...args: (string | number)[]): Promise<unknown> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await client.call(String(args[0]), ...args.slice(1).map(String));
    } finally {
      client.disconnect();
    }
  }

  private async ping(): Promise<boolean> {
    try {
      return (await this.command('PING')) === 'PONG';
    } catch {
      return false;
    }
  }
}

export interface Received {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

/**
 * A local HTTP server that records every request: a notify URL receiver, an
 * operator ntfy endpoint, or the e-mail provider's API (POST /emails answers
 * `{id}` the way the provider does).
 */
export class Receiver {
  readonly requests: Received[] = [];
  status = 200;
  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    let receiver!: Receiver;
    const server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        let body: unknown = raw;
        try {
          body = raw ? JSON.parse(raw) : undefined;
        } catch {
          // plain text
        }
        receiver.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
        res.statusCode = receiver.status;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(receiver.status < 300 ? { id: `email-${receiver.requests.length}` } : { name: 'application_error', message: 'down' }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    receiver = new Receiver(server, (server.address() as { port: number }).port);
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  at(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** A dashboard WebSocket that collects the frames it receives. */
export async function dashboardSocket(baseUrl: string, token?: string): Promise<{ ws: WebSocket; frames: { event: string; data: any }[] }> {
  const ws = new WebSocket(baseUrl.replace('http', 'ws') + '/ws', { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const frames: { event: string; data: any }[] = [];
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  await waitUntil(() => frames.some((f) => f.event === 'connected'), 5000, 'websocket connected');
  return { ws, frames };
}
