'use strict';
/**
 * ai-log-capture: what recording a tool call in the AI-log costs the call itself.
 *
 *   npm run build && node bench/ai-log-capture.js        (or: npm run bench -- ai-log-capture)
 *
 * In this process, on 127.0.0.1, Baton is built by the compiled app factory (dist/) exactly
 * as `node dist/src/main.js` builds it: self-hosted on a fresh SQLite file, and hosted on a
 * fresh Postgres database when one is reachable. Each gets one project and one session. The
 * load is the MCP tool call `heartbeat {session_id}` (POST /mcp, stateless JSON-RPC, a
 * database write per call), driven by autocannon. Capture off means the AI-log's tool-call
 * observer is unregistered; on is as in production. Rounds come in off/on pairs (see measure).
 *
 *   ratio = (cost of a call with capture on) / (cost with capture off) = rps_off / rps_on,
 *           the median over the pairs; Baton's CPU time per call (the load comes from another
 *           process) is reported beside it, a figure other load on the machine disturbs less.
 *
 * The hosted workspace sets an overage cap (PATCH /settings/usage): a free one includes 10,000
 * tool calls a month and refuses the rest inside a 200, which would be measured as served. The
 * heartbeat is sent once more after the rounds and must still beat.
 *
 * Target: ratio <= 1.05. Settings (environment): BENCH_DURATION (s per round, default 3),
 * BENCH_WARMUP (s, default 2), BENCH_ROUNDS (off/on pairs, default 12), BENCH_CONNECTIONS
 * (default 10), BENCH_PG_URL (admin URL, default postgres://postgres@127.0.0.1:5432/test;
 * BENCH_PG=0 skips Postgres), BENCH_STRICT=1 (exit 3 when the target is missed).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { median } = require('./lib/figures');
const { setting } = require('./lib/settings');
const { closeAll } = require('./lib/closers');
const { acceptOverage } = require('./lib/servers');

const TARGET_RATIO_MAX = 1.05;

async function startBaton(root, env) {
  const { createApp } = require(path.join(root, 'dist', 'src', 'app.factory'));
  const { loadConfig } = require(path.join(root, 'dist', 'src', 'config', 'app-config'));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-ailog-'));
  const config = loadConfig({ SERVICE_DATA_DIR: dataDir, SERVICE_PORT: '0', SERVICE_LOG_LEVEL: 'warn', SERVICE_SWEEP_INTERVAL_SECONDS: '0', ...env }, root);
  const app = await createApp(config, { logWrite: () => undefined });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address();
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function request(method, url, { token, body, expect = 200 } = {}) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${method} ${url} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** A server to measure: one project, one session, and the MCP heartbeat call of that session. */
async function prepare(root, name, env, provision) {
  const baton = await startBaton(root, env);
  const token = provision ? await provision(baton) : undefined;
  const project = await request('POST', `${baton.url}/projects`, { token, body: { name: 'bench' }, expect: 201 });
  const session = await request('POST', `${baton.url}/sessions/register`, { token, body: { project_id: project.id, name: 'bench' }, expect: 201 });
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'heartbeat', arguments: { session_id: session.id } } });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const target = { name, baton, token, project, headers, body };
  await checkHeartbeat(target);
  return target;
}

/** The measured call, once: it must beat the session, not be refused inside a 200 (isError). */
async function checkHeartbeat({ baton, headers, body }) {
  const answer = await fetch(`${baton.url}/mcp`, { method: 'POST', headers, body }).then((r) => r.json());
  if (answer.result?.isError || !answer.result?.content?.[0]?.text.includes('"ok":true')) throw new Error(`heartbeat over MCP failed: ${JSON.stringify(answer)}`);
}

/**
 * One round of load from a separate process (the autocannon CLI), so that this process's CPU
 * time is Baton's alone: serving the calls and, with capture on, recording them.
 */
function load(target, { duration, connections }) {
  const { execFile } = require('node:child_process');
  const cli = require.resolve('autocannon/autocannon.js');
  const headers = Object.entries(target.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const args = [cli, '-j', '-c', String(connections), '-d', String(duration), '-m', 'POST', ...headers, '-b', target.body, `${target.baton.url}/mcp`];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`autocannon failed: ${error.message}\n${stderr}`));
      const r = JSON.parse(stdout);
      resolve({ rps: r.requests.average, p99: r.latency.p99, bad: r.errors + r.timeouts + r.non2xx, total: r.requests.total });
    }),
  );
}

/**
 * Pairs of rounds, one with capture off and one on, in ABBA order (off-on, on-off, ...) so
 * that a slow drift of the machine falls on both sides. Each pair gives a cost ratio
 * (calls/s off ÷ calls/s on, and Baton's CPU µs per call on ÷ off); the figures
 * reported are the medians over the pairs, which a burst of load on one round cannot move.
 */
async function measure(root, target, opts) {
  const { ToolCallObservers } = require(path.join(root, 'dist', 'src', 'mcp', 'tool-call-observers'));
  const { AiLogCaptureService } = require(path.join(root, 'dist', 'src', 'modules', 'ai-log', 'ai-log-capture.service'));
  const { AiLogRecorder } = require(path.join(root, 'dist', 'src', 'modules', 'ai-log', 'ai-log-recorder.service'));
  const observers = target.baton.app.get(ToolCallObservers);
  const capture = target.baton.app.get(AiLogCaptureService);
  const recorder = target.baton.app.get(AiLogRecorder);
  const setCapture = (on) => {
    observers.unregister('ai-log');
    if (on) observers.register('ai-log', (call) => capture.toolCall(call));
  };
  // A round's time includes writing what it captured: capture's whole cost is counted.
  const round = async (on) => {
    setCapture(on);
    await recorder.flush();
    const cpu = process.cpuUsage();
    const started = process.hrtime.bigint();
    const r = await load(target, { duration: opts.duration, connections: opts.connections });
    await recorder.flush();
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const used = process.cpuUsage(cpu);
    return { ...r, rps: r.total / seconds, cpu_us_per_call: r.total > 0 ? (used.user + used.system) / r.total : 0 };
  };
  setCapture(true);
  if (opts.warmup > 0) await load(target, { duration: opts.warmup, connections: opts.connections });
  const pairs = [];
  let bad = 0;
  for (let i = 0; i < opts.rounds; i++) {
    const order = i % 2 === 0 ? [false, true] : [true, false];
    const got = {};
    for (const on of order) got[on ? 'on' : 'off'] = await round(on);
    bad += got.on.bad + got.off.bad;
    const pair = {
      off_rps: Math.round(got.off.rps),
      on_rps: Math.round(got.on.rps),
      ratio: got.off.rps / got.on.rps,
      cpu_ratio: got.on.cpu_us_per_call / got.off.cpu_us_per_call,
      cpu_off: got.off.cpu_us_per_call,
      cpu_on: got.on.cpu_us_per_call,
    };
    pairs.push(pair);
    console.log(
      `  ${target.name} pair ${String(i + 1).padStart(2)}: off ${String(pair.off_rps).padStart(5)} calls/s, on ${String(pair.on_rps).padStart(5)} calls/s, ` +
        `cost ratio ${pair.ratio.toFixed(3)}, CPU per call ratio ${pair.cpu_ratio.toFixed(3)}${got.on.bad + got.off.bad ? `  (${got.on.bad + got.off.bad} failed)` : ''}`,
    );
  }
  setCapture(true);
  await recorder.flush();
  // Calls refused inside a 200 (a workspace's compute cap) would count as served: the call must still beat.
  await checkHeartbeat(target);
  const round3 = (x) => Math.round(x * 1000) / 1000;
  return {
    off_rps: Math.round(median(pairs.map((p) => p.off_rps))),
    on_rps: Math.round(median(pairs.map((p) => p.on_rps))),
    ratio: round3(median(pairs.map((p) => p.ratio))),
    cpu_ratio: round3(median(pairs.map((p) => p.cpu_ratio))),
    cpu_us_per_call_off: Math.round(median(pairs.map((p) => p.cpu_off))),
    cpu_us_per_call_on: Math.round(median(pairs.map((p) => p.cpu_on))),
    failed_requests: bad,
    pairs: pairs.map((p) => ({ ...p, ratio: round3(p.ratio), cpu_ratio: round3(p.cpu_ratio), cpu_off: Math.round(p.cpu_off), cpu_on: Math.round(p.cpu_on) })),
  };
}

async function run({ root = path.resolve(__dirname, '..') } = {}) {
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'modules', 'ai-log', 'ai-log-capture.service.js'))) {
    throw new Error(`${path.join(root, 'dist')} has no build of the AI-log: run \`npm run build\` first`);
  }
  const opts = {
    duration: setting('BENCH_DURATION', 3, 1),
    warmup: setting('BENCH_WARMUP', 2, 0),
    rounds: setting('BENCH_ROUNDS', 12, 1),
    connections: setting('BENCH_CONNECTIONS', 10, 1),
  };
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1' };
  console.log(`ai-log-capture: node ${process.version} on ${process.platform}-${process.arch}, ${os.cpus().length} CPUs`);
  console.log(`MCP tools/call heartbeat, ${opts.connections} connections, ${opts.rounds} off/on pairs of ${opts.duration} s rounds after ${opts.warmup} s warm-up`);

  const results = {};
  const closers = [];
  try {
    const sqlite = await prepare(root, 'sqlite', production);
    closers.push(() => sqlite.baton.close());
    results.sqlite = await measure(root, sqlite, opts);
    await closers.pop()();

    if (process.env.BENCH_PG !== '0') {
      const adminUrl = process.env.BENCH_PG_URL || 'postgres://postgres@127.0.0.1:5432/test';
      const { Client } = require('pg');
      const admin = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
      let dbName;
      try {
        await admin.connect();
        dbName = `baton_bench_${randomBytes(5).toString('hex')}`;
        await admin.query(`CREATE DATABASE "${dbName}"`);
      } catch (error) {
        console.log(`postgres: skipped (${error.message})`);
      }
      closers.push(() => admin.end().catch(() => undefined));
      if (dbName) {
        const url = new URL(adminUrl);
        url.pathname = `/${dbName}`;
        const roles = [];
        closers.push(async () => {
          await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
          for (const role of roles) await admin.query(`DROP ROLE IF EXISTS "${role}"`);
        });
        const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
        const hosted = await prepare(
          root,
          'postgres',
          { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: url.toString(), SERVICE_MCP_RATE_LIMIT: '1000000' },
          async ({ app, url: batonUrl }) => {
            const { tenant_id, token } = await app.get(TenantProvisioning).provision('bench');
            roles.push(`baton_t_${tenant_id.replace(/-/g, '')}`);
            await acceptOverage(batonUrl, token);
            return token;
          },
        );
        closers.push(() => hosted.baton.close());
        results.postgres = await measure(root, hosted, opts);
        await closers.pop()();
        await closers.pop()();
      }
    }
  } finally {
    await closeAll(closers);
  }

  let met = true;
  for (const [name, r] of Object.entries(results)) {
    const ok = r.ratio <= TARGET_RATIO_MAX && r.failed_requests === 0;
    met &&= ok;
    console.log(
      `${name}: capture off ${r.off_rps} calls/s, on ${r.on_rps} calls/s; ratio (cost on / cost off, median of pairs) ${r.ratio.toFixed(3)} ` +
        `(target <= ${TARGET_RATIO_MAX}): ${ok ? 'met' : 'MISSED'}; Baton CPU per call ${r.cpu_us_per_call_off} µs off, ${r.cpu_us_per_call_on} µs on, ratio ${r.cpu_ratio.toFixed(3)}`,
    );
  }
  console.log(JSON.stringify({ bench: 'ai-log-capture', node: process.version, settings: opts, target_ratio_max: TARGET_RATIO_MAX, results, met }));
  if (process.env.BENCH_STRICT === '1' && !met) process.exitCode = 3;
}

module.exports = { run };

if (require.main === module) {
  run()
    .then(() => process.exit(process.exitCode ?? 0))
    .catch((error) => {
      process.stderr.write(`bench failed: ${error.stack || error}\n`);
      process.exit(1);
    });
}
