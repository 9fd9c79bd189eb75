import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Fills Node's compile cache (NODE_COMPILE_CACHE, see src/common/lifecycle/compile-cache.ts) by
 * starting Baton once, self-hosted on a throwaway data folder, until GET /health answers, then
 * stopping it: every module a start loads is then in the cache, including the ones loaded while
 * the application is built (the WebSocket adapter, the SQLite driver, the migrations), which
 * merely requiring the entry point misses. Run by the Docker image's build as the user that runs
 * Baton: Node keeps each user's entries in a folder named with the uid, so entries root wrote
 * would never be read by that user.
 *
 *   node dist/src/cli/warm-compile-cache.js
 */
const main = join(__dirname, '..', 'main.js');
const TIMEOUT_MS = 120_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function warm(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'baton-warm-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...process.execArgv, main], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      SERVICE_DATA_DIR: dataDir,
      SERVICE_HOST: '127.0.0.1',
      SERVICE_PORT: String(port),
      APP_URL: url,
      // Only for this throwaway start: nothing it signs outlives it.
      SESSION_SECRET: 'compile-cache-warm-up-only-0123456789abcdef',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`Baton exited (${child.exitCode}) before GET /health answered`);
      if (Date.now() > deadline) throw new Error(`GET /health did not answer within ${TIMEOUT_MS} ms`);
      const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) }).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The cache is written once the server listens (keepCompiledModules), before /health can answer; SIGTERM stops it cleanly.
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`Baton stopped with status ${code}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

warm().then(
  () => process.stdout.write('compile cache filled\n'),
  (error: unknown) => {
    process.stderr.write(`warm-compile-cache: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
