'use strict';
/**
 * read: how close an authenticated read of one project comes to what the framework alone
 * can serve, on both storage set-ups, and how fast and how small the server starts.
 *
 * In this process, on 127.0.0.1:
 *   ceiling   a bare NestJS-on-express app whose GET /projects/:id returns a constant JSON body
 *             (the same bytes Baton returns), i.e. the framework's own cost;
 *   postgres  Baton in hosted mode on a fresh Postgres database, one provisioned tenant, one
 *             project, GET /projects/{id} with the tenant's bearer token;
 *   sqlite    Baton self-hosted on a fresh SQLite file, one project, GET /projects/{id}.
 * Each is driven by autocannon for the same time with the same connections, one after the
 * other. Then the command `npm start` runs (node, its flags, dist/src/main.js) is started several times on a fresh SQLite data
 * directory to time GET /health and read the idle RSS.
 *
 * Settings (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3),
 * BENCH_CONNECTIONS (default 50), BENCH_WORKERS (load-generator threads, default 1; 0 runs
 * it on the main thread), BENCH_COLD_RUNS (default 3), BENCH_SETTLE_MS (default 2000),
 * BENCH_PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_STRICT=1 (exit 3 when a target is missed).
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { measure } = require('./lib/load');
const { createDatabase, ADMIN_URL, replay } = require('./lib/postgres');
const { startBaton, startCeiling, request } = require('./lib/servers');
const { coldStart, startCommand } = require('./lib/cold-start');
const { setting } = require('./lib/settings');

const TARGETS = {
  postgres_ratio_min: 0.5,
  postgres_p99_ms_max: 20,
  cold_start_ms_max: 3000,
  idle_rss_mb_max: 150,
};

const pad = (s, n) => String(s).padEnd(n);
const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);
const verdict = (ok) => (ok ? 'met' : 'MISSED');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : Math.round((s[s.length / 2 - 1] + s[s.length / 2]) / 2);
};

async function run({ root }) {
  const opts = {
    duration: setting('BENCH_DURATION', 10, 1),
    warmup: setting('BENCH_WARMUP', 3, 0),
    connections: setting('BENCH_CONNECTIONS', 50, 1),
    workers: setting('BENCH_WORKERS', 1, 0),
    coldRuns: setting('BENCH_COLD_RUNS', 3, 1),
    settleMs: setting('BENCH_SETTLE_MS', 2000, 0),
  };
  // express reads NODE_ENV when an app is created: every server here runs as in production.
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { TenantsService } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenants.service'));
  const { APP_CONFIG } = require(path.join(root, 'dist', 'src', 'config', 'config.module'));
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex') };

  console.log(
    `read: GET /projects/{id}, ${opts.connections} connections, ${opts.duration} s measured after ${opts.warmup} s warm-up, ` +
      `load generator on ${opts.workers > 0 ? `${opts.workers} worker thread(s)` : 'the main thread'}`,
  );

  const closers = [];
  // First Ctrl-C: finish the current step, then clean up (the database, temp dirs). The same
  // signal may arrive twice (from the terminal and from a parent bench/run.js forwarding it);
  // a repeat more than 2 s later exits at once.
  let interrupted = 0;
  const onSignal = () => {
    if (interrupted && Date.now() - interrupted > 2000) process.exit(130);
    if (!interrupted) process.stderr.write('interrupted: stopping after the current step and cleaning up\n');
    interrupted ||= Date.now();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const check = () => {
    if (interrupted) throw new Error('interrupted');
  };

  try {
    // --- Baton self-hosted on SQLite
    const sqlite = await startBaton(root, { ...production, APP_URL: 'http://127.0.0.1' });
    closers.push(() => sqlite.close());
    const sqliteProject = (await request('POST', `${sqlite.url}/projects`, { body: { name: 'bench' }, expect: 201 })).json;
    const sqlitePath = `/projects/${sqliteProject.id}`;
    await request('GET', sqlite.url + sqlitePath);

    // --- Baton hosted on Postgres, one tenant
    const db = await createDatabase();
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    const hosted = await startBaton(root, { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' });
    closers.push(() => hosted.close());
    const { token } = await hosted.app.get(TenantsService).provision('bench');
    const hostedProject = (await request('POST', `${hosted.url}/projects`, { token, body: { name: 'bench' }, expect: 201 })).json;
    const hostedPath = `/projects/${hostedProject.id}`;
    // The read Baton sends to Postgres for this request (scope, statement, values), for the database-only figure.
    const read = await captureRead(root, /FROM "projects"/, () => request('GET', hosted.url + hostedPath, { token }));
    const hostedBody = (await request('GET', hosted.url + hostedPath, { token })).json;
    await request('GET', hosted.url + hostedPath, { expect: 401 }); // the route is really authenticated

    // --- the ceiling, answering with the same JSON
    const ceiling = await startCeiling(root, hostedBody);
    closers.push(() => ceiling.close());
    await request('GET', ceiling.url + hostedPath);
    check();

    const load = { connections: opts.connections, duration: opts.duration, warmup: opts.warmup, workers: opts.workers };
    const results = {};
    const rows = [
      ['ceiling', 'bare NestJS/express, constant JSON', ceiling.url + hostedPath, {}],
      ['postgres', 'Baton hosted, bearer token', hosted.url + hostedPath, { authorization: `Bearer ${token}` }],
      ['sqlite', 'Baton self-hosted', sqlite.url + sqlitePath, {}],
    ];
    for (const [key, label, url, headers] of rows) {
      check();
      const r = await measure({ url, headers, ...load });
      results[key] = r;
      const extra = key === 'ceiling' ? '' : `  ratio ${ratio(r.rps, results.ceiling.rps).toFixed(3)}`;
      const bad = r.ok ? '' : `  (errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx})`;
      console.log(`${pad(key, 9)} ${pad(`(${label})`, 38)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50_ms} ms  p99 ${r.p99_ms} ms${extra}${bad}`);
    }

    // What Postgres alone answers for the same statement, with Baton's pool size and no HTTP.
    check();
    const database = await replay({
      url: db.url,
      root,
      read,
      connections: opts.connections,
      poolSize: hosted.app.get(APP_CONFIG).dbPoolSize,
      duration: opts.duration,
      warmup: opts.warmup,
    });
    results.database = database;
    console.log(
      `${pad('database', 9)} ${pad('(the read alone, no HTTP)', 38)} ${String(database.rps).padStart(7)} st/s   p50 ${database.p50_ms} ms  p99 ${database.p99_ms} ms` +
        `  postgres/database ${ratio(results.postgres.rps, database.rps).toFixed(3)}`,
    );

    // The servers stop before the cold starts, so these run on a quiet machine.
    while (closers.length) await closers.pop()();

    const cold = [];
    for (let i = 0; i < opts.coldRuns; i++) {
      check();
      cold.push(await coldStart(root, { settleMs: opts.settleMs }));
    }
    const coldMs = median(cold.map((c) => c.ready_ms));
    const rssValues = cold.map((c) => c.rss_mb).filter((v) => v !== undefined);
    const rssMb = rssValues.length ? Math.max(...rssValues) : undefined;
    console.log(
      `cold start (${['node', ...startCommand(root).flat()].join(' ')}, fresh SQLite data dir, until GET /health is 200): median ${coldMs} ms of [${cold
        .map((c) => c.ready_ms)
        .join(', ')}] ms`,
    );
    console.log(
      `idle RSS ${opts.settleMs} ms after ready (VmRSS, largest of the runs): ${rssMb === undefined ? 'unavailable (no /proc)' : `${rssMb} MB`} [${rssValues.join(', ')}]`,
    );

    const pgRatio = ratio(results.postgres.rps, results.ceiling.rps);
    const sqliteRatio = ratio(results.sqlite.rps, results.ceiling.rps);
    const met = {
      postgres_ratio: pgRatio >= TARGETS.postgres_ratio_min,
      postgres_p99: results.postgres.p99_ms < TARGETS.postgres_p99_ms_max,
      cold_start: coldMs < TARGETS.cold_start_ms_max,
      idle_rss: rssMb !== undefined && rssMb < TARGETS.idle_rss_mb_max,
    };
    console.log(`ratio postgres/ceiling ${pgRatio.toFixed(3)} (target >= ${TARGETS.postgres_ratio_min}): ${verdict(met.postgres_ratio)}`);
    console.log(`p99 postgres ${results.postgres.p99_ms} ms (target < ${TARGETS.postgres_p99_ms_max} ms): ${verdict(met.postgres_p99)}`);
    console.log(`ratio sqlite/ceiling ${sqliteRatio.toFixed(3)} (no target)`);
    console.log(`cold start ${coldMs} ms (target < ${TARGETS.cold_start_ms_max} ms): ${verdict(met.cold_start)}`);
    console.log(`idle RSS ${rssMb ?? '?'} MB (target < ${TARGETS.idle_rss_mb_max} MB): ${verdict(met.idle_rss)}`);
    const clean = [results.ceiling, results.postgres, results.sqlite].every((r) => r.ok);
    if (!clean) console.log('WARNING: some requests failed during the load; the figures above are not comparable');

    const summary = {
      bench: 'read',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      settings: opts,
      ceiling: results.ceiling,
      postgres: { ...results.postgres, ratio: pgRatio },
      sqlite: { ...results.sqlite, ratio: sqliteRatio },
      database: { ...results.database, statement: read.text, postgres_ratio: ratio(results.postgres.rps, results.database.rps) },
      cold_start: { median_ms: coldMs, runs_ms: cold.map((c) => c.ready_ms) },
      idle_rss_mb: rssMb ?? null,
      targets: TARGETS,
      met,
      all_requests_ok: clean,
    };
    console.log(JSON.stringify(summary));
    if (process.env.BENCH_STRICT === '1' && (!clean || Object.values(met).some((ok) => !ok))) process.exitCode = 3;
  } finally {
    while (closers.length) {
      try {
        await closers.pop()();
      } catch (error) {
        process.stderr.write(`cleanup: ${error instanceof Error ? error.message : String(error)}\n`);
      }
    }
  }
}

/**
 * The first read (a `ScopedRead`: tenant scope, statement text, values) whose text matches
 * `pattern` that Baton's pg client is given while `action` runs.
 */
async function captureRead(root, pattern, action) {
  const { Client } = require(path.join(root, 'node_modules', 'pg'));
  const { ScopedRead } = require(path.join(root, 'dist', 'libs', 'tenancy', 'scoped-read'));
  const original = Client.prototype.query;
  let seen;
  Client.prototype.query = function (query, ...rest) {
    if (seen === undefined && query instanceof ScopedRead && pattern.test(query.text)) {
      seen = { scope: query.scope, text: query.text, values: query.values };
    }
    return original.call(this, query, ...rest);
  };
  try {
    await action();
  } finally {
    Client.prototype.query = original;
  }
  if (seen === undefined) throw new Error(`no read matching ${pattern} was sent`);
  return seen;
}

module.exports = { run };
