import { ChildProcess, spawn } from 'node:child_process';
import Redis from 'ioredis';
import { freePort } from './processes';
import { waitUntil } from './wait';

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
