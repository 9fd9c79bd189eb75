'use strict';
/** Cold start of the production entry point: `node dist/src/main.js` on a fresh SQLite data directory. */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The VmRSS of a process in MB (10^6 bytes), from /proc (undefined where /proc is not available). */
function rssMB(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(status.match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
    return Number.isFinite(kb) ? Math.round((kb * 1024) / 1e5) / 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The command `npm start` runs after its build step (package.json "start": "node <flags> <script>"),
 * as [nodeFlags, script], so the cold start measures what users start.
 */
function startCommand(root) {
  const start = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2) throw new Error(`package.json "start" is not "node [flags] <script>": ${start}`);
  return [words.slice(1, -1), words[words.length - 1]];
}

/** The environment of the child: ours without any Baton setting, plus the given ones. */
function childEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(SERVICE_|APP_URL$|SESSION_SECRET$|SITE_PASSWORD$|BILLING_|EMAIL_API_KEY$|NODE_ENV$|NODE_OPTIONS$)/.test(k)) continue;
    if (k.startsWith('BENCH_') || k.startsWith('BATON_')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/**
 * Spawns the server, polls GET /health until it answers 200, waits `settleMs`, reads the idle
 * RSS, stops the server. Returns { ready_ms, rss_mb }.
 */
async function coldStart(root, { settleMs = 2000, timeoutMs = 30000 } = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-cold-'));
  const port = await freePort();
  const env = childEnv({
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    APP_URL: `http://127.0.0.1:${port}`,
    SERVICE_PORT: String(port),
    SERVICE_DATA_DIR: dataDir,
  });
  const output = [];
  const started = process.hrtime.bigint();
  const [nodeFlags, script] = startCommand(root);
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, script)], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => output.push(String(d)));
  child.stderr.on('data', (d) => output.push(String(d)));
  let exited = null;
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));
  try {
    let readyMs;
    while (readyMs === undefined) {
      if (exited) throw new Error(`dist/src/main.js exited (${exited.code ?? exited.signal}) before /health answered:\n${output.join('')}`);
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (elapsed > timeoutMs) throw new Error(`/health did not answer 200 within ${timeoutMs} ms:\n${output.join('')}`);
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(1000) });
        await res.arrayBuffer();
        if (res.status === 200) readyMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      } catch {
        // not listening yet
      }
      if (readyMs === undefined) await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, settleMs));
    return { ready_ms: readyMs, rss_mb: rssMB(child.pid) };
  } finally {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

module.exports = { childEnv, coldStart, freePort, rssMB, startCommand };
