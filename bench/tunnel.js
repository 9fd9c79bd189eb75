'use strict';
/**
 * tunnel: what Baton's tool proxy costs next to calling the tool server directly.
 *
 * One local MCP tool server (Streamable HTTP, stateless, JSON answers; its own process) serves a
 * tool `echo`. `baton connect` (its own process, as a person runs it) serves that server under the
 * prefix `docs` to a self-hosted Baton in this process. The same `tools/call` of `echo` is driven
 * with the same connections for the same time, in alternating rounds, at
 *   direct  the tool server's own URL;
 *   proxy   Baton's `POST /docs/mcp/{tenant_id}`, forwarded over the connector's WebSocket.
 * Printed: req/s, p50/p99 of both, and the ratio proxy/direct (target >= 0.5).
 *
 * Settings (environment): BENCH_DURATION (s per round and door, default 5), BENCH_ROUNDS
 * (default 2), BENCH_WARMUP (s, default 2), BENCH_CONNECTIONS (default 20), BENCH_WORKERS
 * (default 1), BENCH_STRICT=1 (exit 3 when the target is missed or a request failed).
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { measure } = require('./lib/load');
const { startBaton } = require('./lib/servers');
const { pad, ratio, verdict } = require('./lib/figures');
const { loadSettings } = require('./lib/settings');

const TARGETS = { proxy_direct_ratio_min: 0.5 };
const LOCAL_TENANT = '00000000-0000-0000-0000-000000000000';
const PROTOCOL_VERSION = '2025-06-18';

/** Starts a child process and resolves with the first match of `ready` in its output. */
function startChild(args, env, ready) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH, HOME: os.tmpdir(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${out}`)), 30_000);
    const look = (d) => {
      out += d;
      const match = ready.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${out}`)));
  });
}

async function run({ root }) {
  const opts = loadSettings({ duration: 5, warmup: 2, rounds: 2, connections: 20 });
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  console.log(
    `tunnel: tools/call echo directly on a local MCP server and through Baton's /docs/mcp proxy over the connector, ` +
      `${opts.connections} connections, ${opts.rounds} round(s) of ${opts.duration} s per door, alternating, after ${opts.warmup} s warm-up each`,
  );
  const closers = [];
  try {
    const tools = await startChild([path.join(__dirname, 'lib', 'tool-server.js'), root], {}, /listening (\d+)/);
    closers.push(() => tools.child.kill());
    const direct = `http://127.0.0.1:${tools.match[1]}/mcp`;
    const baton = await startBaton(root, { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1' });
    closers.push(() => baton.close());
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-connector-'));
    closers.push(() => fs.rmSync(home, { recursive: true, force: true }));
    const connector = await startChild(
      [path.join(root, 'dist', 'src', 'cli', 'baton.js'), 'connect', '--url', baton.url, '--plugin', `docs=${direct}`, '--token-file', path.join(home, 't.json')],
      { HOME: home },
      /Connected to/,
    );
    closers.unshift(() => connector.child.kill());
    const proxy = `${baton.url}/docs/mcp/${LOCAL_TENANT}`;

    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': PROTOCOL_VERSION };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'through the tunnel' } } });
    for (const url of [direct, proxy]) {
      let answer;
      for (let i = 0; i < 50 && !answer?.result; i++) {
        const res = await fetch(url, { method: 'POST', headers, body });
        answer = res.status === 200 ? await res.json() : undefined;
        if (!answer?.result) await new Promise((r) => setTimeout(r, 100));
      }
      if (answer?.result?.content?.[0]?.text !== 'through the tunnel') throw new Error(`${url} did not answer the call: ${JSON.stringify(answer)}`);
    }

    const doors = { direct: { url: direct, method: 'POST', headers, body }, proxy: { url: proxy, method: 'POST', headers, body } };
    const runs = { direct: [], proxy: [] };
    for (let round = 0; round < opts.rounds; round++) {
      for (const name of round % 2 === 0 ? ['direct', 'proxy'] : ['proxy', 'direct']) {
        runs[name].push(await measure({ ...doors[name], connections: opts.connections, duration: opts.duration, warmup: round === 0 ? opts.warmup : 0, workers: opts.workers }));
      }
    }
    const pooled = (ms) => ({
      rps: Math.round(ms.reduce((s, m) => s + m.rps, 0) / ms.length),
      requests: ms.reduce((s, m) => s + m.requests, 0),
      p50_ms: Math.max(...ms.map((m) => m.p50_ms)),
      p99_ms: Math.max(...ms.map((m) => m.p99_ms)),
      errors: ms.reduce((s, m) => s + m.errors + m.timeouts + m.non2xx, 0),
      ok: ms.every((m) => m.ok),
    });
    const results = { direct: pooled(runs.direct), proxy: pooled(runs.proxy) };
    for (const [name, m] of Object.entries(results)) {
      console.log(`${pad(name, 7)} ${String(m.rps).padStart(7)} req/s  p50 ${m.p50_ms} ms  p99 ${m.p99_ms} ms${m.ok ? '' : `  (${m.errors} failed)`}`);
    }
    const r = ratio(results.proxy.rps, results.direct.rps);
    const met = r >= TARGETS.proxy_direct_ratio_min;
    console.log(`ratio proxy/direct ${r.toFixed(3)} (target >= ${TARGETS.proxy_direct_ratio_min}): ${verdict(met)}`);
    const clean = results.direct.ok && results.proxy.ok;
    if (!clean) console.log('WARNING: some requests failed during the load; the figures above are not comparable');
    console.log(
      JSON.stringify({
        bench: 'tunnel',
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        settings: opts,
        ...results,
        ratio: r,
        targets: TARGETS,
        met,
        all_requests_ok: clean,
      }),
    );
    if (process.env.BENCH_STRICT === '1' && (!clean || !met)) process.exitCode = 3;
  } finally {
    for (const close of closers) await Promise.resolve(close()).catch(() => undefined);
  }
}

module.exports = { run };
