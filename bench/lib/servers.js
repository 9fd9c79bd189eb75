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
    const config = loadConfig({ SERVICE_DATA_DIR: dataDir, SERVICE_PORT: '0', SERVICE_LOG_LEVEL: 'warn', ...env }, root);
    app = await createApp(config, {
      logWrite: (line) => {
        logs.push(line);
        if (logs.length > 50) logs.shift();
      },
    });
    await app.listen(0, '127.0.0.1');
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

module.exports = { startCeiling, startBaton, request };
