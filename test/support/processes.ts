import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..', '..');

/**
 * Builds dist/ when the sources changed since the last build (what `npm start` runs first), for
 * suites that start the built server. Never a forced build: that empties the dashboard's dist/
 * for a while, under the browser suites running beside.
 */
export function buildIfStale(): void {
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts', 'build-if-stale.js')], { cwd: REPO_ROOT, stdio: 'ignore' });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Waits until GET <url>/health answers 200 with `status: "ok"` (a Baton still waiting for its
 * database answers 200 `starting`: pass `status` to wait for that), or throws after `timeoutMs`.
 */
export async function waitForHealth(url: string, timeoutMs: number, child?: ChildProcess, status = 'ok'): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (child && child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200 && ((await res.json()) as { status?: string }).status === status) return Date.now() - started;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no /health with status ${status} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Runs `command` (default: the built server, `node dist/src/main.js`) as a
 * separate process on a free port (or `port`: one APP_URL names, or a restart on the same
 * address) and waits for /health to report `status` (default `ok`).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { command?: string[]; timeoutMs?: number; status?: string; port?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-proc-'));
  const [cmd, ...args] = options.command ?? [process.execPath, 'dist/src/main.js'];
  const child = spawn(cmd, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, SERVICE_PORT: String(port), SERVICE_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: 'warn', SERVICE_TENANT_SPARES: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (running()) {
      const exited = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-(child.pid as number), 'SIGTERM');
      } catch {
        child.kill('SIGTERM');
      }
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
      clearTimeout(timer);
      if (running()) process.kill(-(child.pid as number), 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(url, options.timeoutMs ?? 15_000, child, options.status);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${out}`, { cause: error });
  }
  return { url, child, output: () => out, stop };
}
