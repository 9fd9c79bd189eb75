'use strict';
/**
 * internals: what each reach into a library's internals buys, against the same work done
 * through the libraries' public APIs, in the same run (docs/decisions.md, "Library internals").
 *
 * One Baton in hosted mode on a fresh Postgres database, one provisioned tenant, driven over
 * HTTP by autocannon. For each reach, the route it speeds up is measured with the reach and
 * without it, in alternating rounds (with, without, with, without, ...), and the ratio of the
 * summed requests is printed: `without/with` below 1 is what the reach buys. Beside it, the
 * server's CPU time per request (its main thread; the load generator runs in a worker thread),
 * which other work on the machine disturbs less than requests per second.
 *
 *   reads       GET /projects/{id}: TenantDb.read on ReadLanes/ScopedRead (pg's Query subclassed,
 *               pipelined on pool connections TypeORM's driver holds, TypeORM's query runner
 *               routed there) against a read-only transaction per request (TypeORM query runner).
 *   writes      PATCH /sessions/{id} with a state (a read and an UPDATE in one transaction), each
 *               connection on its own session:
 *               `pipelined` (BEGIN with the scope, and the bound statement, written together on
 *               a connection put in pg's pipeline mode, through TypeORM's query runner routed
 *               there and told a transaction is open) against `separate` (the same, the
 *               statement sent after the opening's answer) and `typeorm` (startTransaction,
 *               scope, statement, commitTransaction through the query runner's public API).
 *   validation  GET /projects/{id}: validateInput with its quick check in front of class-validator
 *               (src/common/validation/quick-check.ts, which reads class-validator's rule metadata)
 *               against class-validator's validate() alone; then, without HTTP, validateInput
 *               calls per second both ways.
 *
 * Settings (environment): BENCH_DURATION (s per measurement, default 5), BENCH_ROUNDS (default 3),
 * BENCH_WARMUP (s before each section, default 2), BENCH_CONNECTIONS (default 50), BENCH_WORKERS
 * (load-generator threads, default 1), BENCH_PG_URL (admin connection).
 * `npm run bench -- internals [reads] [writes] [validation]` runs only the sections named.
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const autocannon = require('autocannon');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startBaton, request } = require('./lib/servers');
const { ratio } = require('./lib/figures');
const { loadSettings } = require('./lib/settings');

async function load({ url, token, requests, opts, duration }) {
  // The server's own CPU: this thread's (the load generator runs in a worker thread, Postgres elsewhere).
  const cpu0 = threadCpu();
  const r = await autocannon({
    url,
    headers: { authorization: `Bearer ${token}` },
    connections: opts.connections,
    workers: opts.workers > 0 ? opts.workers : undefined,
    duration,
    ...(requests ? { setupClient: path.join(__dirname, 'lib', 'spread-client.js') } : {}),
  });
  const cpuUs = threadCpu() - cpu0;
  const bad = r.errors + r.timeouts + r.non2xx;
  return { requests: r.requests.total, rps: Math.round(r.requests.average), p99_ms: r.latency.p99, bad, cpuUs };
}

/** CPU time of this thread in µs (the whole process where Node cannot tell threads apart). */
function threadCpu() {
  const u = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : process.cpuUsage();
  return u.user + u.system;
}

/**
 * Measures `url` under each mode in `modes` ({name: apply()}), in alternating rounds; the first
 * mode is the one with the reach. Returns per mode the summed requests, mean req/s and worst p99.
 */
async function compare({ title, url, token, requests, modes, opts }) {
  process.env.BENCH_SPREAD_REQUESTS = JSON.stringify(requests ?? []);
  const names = Object.keys(modes);
  const totals = Object.fromEntries(names.map((n) => [n, { requests: 0, seconds: 0, p99_ms: 0, bad: 0, cpuUs: 0 }]));
  for (const name of names) {
    modes[name]();
    await load({ url, token, requests, opts, duration: opts.warmup });
  }
  for (let round = 0; round < opts.rounds; round++) {
    // Alternate the order too, so neither mode always runs right after the other.
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      modes[name]();
      const r = await load({ url, token, requests, opts, duration: opts.duration });
      const t = totals[name];
      t.requests += r.requests;
      t.seconds += opts.duration;
      t.p99_ms = Math.max(t.p99_ms, r.p99_ms);
      t.bad += r.bad;
      t.cpuUs += r.cpuUs;
    }
  }
  modes[names[0]]();
  const base = totals[names[0]];
  const out = {};
  for (const name of names) {
    const t = totals[name];
    const rps = Math.round(t.requests / t.seconds);
    const cpuPerRequest = t.requests ? Math.round(t.cpuUs / t.requests) : 0;
    out[name] = {
      rps,
      p99_ms: t.p99_ms,
      ratio: ratio(t.requests, base.requests),
      server_cpu_us_per_request: cpuPerRequest,
      cpu_ratio: ratio(cpuPerRequest, Math.round(base.cpuUs / base.requests)),
      failed: t.bad,
    };
    const note = name === names[0] ? '(with the reach)' : `ratio ${out[name].ratio.toFixed(3)} of ${names[0]}, server CPU per request x${out[name].cpu_ratio.toFixed(2)}`;
    console.log(
      `${title.padEnd(11)} ${name.padEnd(12)} ${String(rps).padStart(6)} req/s  p99 ${t.p99_ms} ms  server CPU ${cpuPerRequest} µs/request  ${note}${t.bad ? `  (${t.bad} failed: not comparable)` : ''}`,
    );
  }
  return out;
}

/** validateInput calls per second without HTTP, per shortcut setting, in alternating rounds. */
async function validationCalls({ root, rounds }) {
  const { validateInput, useQuickCheck } = require(path.join(root, 'dist', 'src', 'common', 'validation', 'validate-input'));
  const { RegisterSessionDto } = require(path.join(root, 'dist', 'src', 'modules', 'sessions', 'dto', 'register-session.dto'));
  const input = { project_id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', name: 'bench', kind: 'worker' };
  const calls = async (ms) => {
    let n = 0;
    const end = Date.now() + ms;
    while (Date.now() < end) {
      for (let i = 0; i < 200; i++) await validateInput(RegisterSessionDto, input);
      n += 200;
    }
    return n;
  };
  const modes = { 'quick check': true, plain: false };
  const names = Object.keys(modes);
  const sums = Object.fromEntries(names.map((n) => [n, 0]));
  for (const name of names) {
    useQuickCheck(modes[name]);
    await calls(300);
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      useQuickCheck(modes[name]);
      sums[name] += await calls(1000);
    }
  }
  useQuickCheck(true);
  const out = {};
  for (const name of names) {
    const perS = Math.round(sums[name] / rounds);
    out[name] = { calls_per_s: perS, us_per_call: Math.round(1e7 / perS) / 10, ratio: ratio(sums[name], sums['quick check']) };
    console.log(
      `validation  ${name.padEnd(12)} validateInput(RegisterSessionDto) without HTTP: ${String(perS).padStart(7)} calls/s (${out[name].us_per_call} µs)` +
        (name === 'quick check' ? '' : `  ratio ${out[name].ratio.toFixed(3)} of quick check`),
    );
  }
  return out;
}

async function run({ root, args }) {
  const opts = {
    ...loadSettings({ duration: 5, warmup: 2, rounds: 3 }),
  };
  const sections = args.length ? args : ['reads', 'writes', 'validation'];
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
  const { TenantDb } = require(path.join(root, 'dist', 'libs', 'tenancy'));
  const { useQuickCheck } = require(path.join(root, 'dist', 'src', 'common', 'validation', 'validate-input'));
  console.log(
    `internals: ${sections.join(', ')}; ${opts.connections} connections, ${opts.rounds} rounds of ${opts.duration} s per mode, ` +
      `${opts.warmup} s warm-up per mode, load generator on ${opts.workers > 0 ? `${opts.workers} worker thread(s)` : 'the main thread'}`,
  );

  const closers = [];
  const results = {};
  try {
    const db = await createDatabase();
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex') };
    const hosted = await startBaton(root, { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' });
    closers.push(() => hosted.close());
    const { token } = await hosted.app.get(TenantProvisioning).provision('bench');
    const paths = hosted.app.get(TenantDb).postgresPaths;
    const project = (await request('POST', `${hosted.url}/projects`, { token, body: { name: 'bench' }, expect: 201 })).json;
    const projectUrl = `${hosted.url}/projects/${project.id}`;
    await request('GET', projectUrl, { token });

    if (sections.includes('reads')) {
      results.reads = await compare({
        title: 'reads',
        url: projectUrl,
        token,
        opts,
        modes: { lanes: () => (paths.read = 'lanes'), transaction: () => (paths.read = 'transaction') },
      });
    }
    if (sections.includes('writes')) {
      const sessions = [];
      for (let i = 0; i < opts.connections; i++) {
        sessions.push((await request('POST', `${hosted.url}/sessions/register`, { token, body: { project_id: project.id, name: `bench ${i}` }, expect: 201 })).json);
      }
      const requests = sessions.map((s) => ({ method: 'PATCH', path: `/sessions/${s.id ?? s.session_id}`, body: JSON.stringify({ state: { step: 'bench' } }) }));
      await request('PATCH', `${hosted.url}${requests[0].path}`, { token, body: { state: { step: 'bench' } } });
      results.writes = await compare({
        title: 'writes',
        url: hosted.url,
        token,
        requests,
        opts,
        modes: {
          pipelined: () => (paths.write = 'pipelined'),
          separate: () => (paths.write = 'separate'),
          typeorm: () => (paths.write = 'typeorm'),
        },
      });
    }
    if (sections.includes('validation')) {
      results.validation = await compare({
        title: 'validation',
        url: projectUrl,
        token,
        opts,
        modes: { 'quick check': () => useQuickCheck(true), plain: () => useQuickCheck(false) },
      });
      results.validation.calls = await validationCalls({ root, rounds: opts.rounds });
    }
  } finally {
    while (closers.length)
      await closers
        .pop()()
        .catch((e) => process.stderr.write(`cleanup: ${e.message}\n`));
  }
  console.log(JSON.stringify({ bench: 'internals', node: process.version, platform: `${process.platform}-${process.arch}`, settings: opts, ...results }));
}

module.exports = { run };
