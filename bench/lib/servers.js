'use strict';
/** The servers a benchmark measures, each listening on 127.0.0.1 on a free port in this process. */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function urlOf(app) {
  const { port } = app.getHttpServer().address();
  return `http://127.0.0.1:${port}`;
}

/**
 * The framework ceiling: a bare NestJS application on express with one route that returns
 * a constant JSON body (`body`, the same bytes as the route it is compared with).
 */
async function startCeiling(root, body) {
  const { Controller, Get, Module } = require(path.join(root, 'node_modules', '@nestjs', 'common'));
  const { NestFactory } = require(path.join(root, 'node_modules', '@nestjs', 'core'));

  class CeilingController {
    get() {
      return body;
    }
  }
  Controller('projects')(CeilingController);
  Get(':project_id')(CeilingController.prototype, 'get', Object.getOwnPropertyDescriptor(CeilingController.prototype, 'get'));
  class CeilingModule {}
  Module({ controllers: [CeilingController] })(CeilingModule);

  const app = await NestFactory.create(CeilingModule, { logger: false });
  app.disable('x-powered-by');
  await app.listen(0, '127.0.0.1');
  return { url: urlOf(app), close: () => app.close() };
}

/**
 * Baton itself, built by the compiled app factory exactly as `node dist/src/main.js` builds it.
 * `env` is all the configuration it sees. Log lines are kept (the last 50) for error reports.
 */
async function startBaton(root, env) {
  const { createApp } = require(path.join(root, 'dist', 'src', 'app.factory'));
  const { loadConfig } = require(path.join(root, 'dist', 'src', 'config', 'app-config'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-'));
  const logs = [];
  let app;
  try {
    // No tenants made in advance unless a benchmark asks (bench/provision.js): the reserve is made in
    // the background after start, which would run beside what a benchmark measures.
    const config = loadConfig({ SERVICE_DATA_DIR: dataDir, SERVICE_PORT: '0', SERVICE_LOG_LEVEL: 'warn', SERVICE_TENANT_SPARES: '0', ...env }, root);
    app = await createApp(config, {
      logWrite: (line) => {
        logs.push(line);
        if (logs.length > 50) logs.shift();
      },
    });
    // With the backlog main.js listens with: thousands of waiters connect at once.
    await require(path.join(root, 'dist', 'src', 'common', 'lifecycle', 'listen')).listenApp(app, 0, '127.0.0.1');
  } catch (error) {
    await app?.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    app,
    url: urlOf(app),
    logs,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Baton as production runs it: the command `npm start` runs (node, its flags, dist/src/main.js) as
 * a child process on a free port, `env` its only Baton settings; resolves once GET /health
 * answers 200. `close()` sends SIGTERM and waits for the exit.
 */
async function startProcess(root, env, { timeoutMs = 30000 } = {}) {
  const { spawn } = require('node:child_process');
  const { childEnv, freePort, startCommand } = require('./cold-start');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-proc-'));
  const [nodeFlags, script] = startCommand(root);
  const child = spawn(process.execPath, [...nodeFlags, path.join(root, script)], {
    cwd: root,
    env: childEnv({ SERVICE_PORT: String(port), SERVICE_DATA_DIR: dataDir, SERVICE_LOG_LEVEL: 'warn', SERVICE_TENANT_SPARES: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = [];
  const keep = (d) => {
    output.push(String(d));
    if (output.length > 50) output.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exit = new Promise((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    await stopChild(child, exit, 30000);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`dist/src/main.js exited (${child.exitCode}) before /health answered:\n${output.join('')}`);
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) });
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > timeoutMs) {
      await close();
      throw new Error(`/health did not answer 200 within ${timeoutMs} ms:\n${output.join('')}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url, pid: child.pid, output, close };
}

/** A small JSON request; throws with the status and body unless the answer is the expected one. */
async function request(method, url, { token, body, expect = 200 } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${method} ${url} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

/**
 * Lets a hosted workspace's tool calls past its plan's included ones go on (an overage cap no run
 * reaches), as a paying workspace would: a free one includes 10,000 a month, fewer than a benchmark
 * makes, and refuses the rest inside a 200 (`isError`, compute cap reached), which a load
 * generator would count as served.
 */
function acceptOverage(url, token) {
  return request('PATCH', `${url}/settings/usage`, { token, body: { compute_overage_cap_usd: 100_000 } });
}

/** Sends `child` SIGTERM and waits for `exited` (its exit), with SIGKILL after `graceMs`; nothing when it has already ended. */
async function stopChild(child, exited, graceMs) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

module.exports = { startCeiling, startBaton, startProcess, stopChild, request, acceptOverage };
