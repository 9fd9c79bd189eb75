'use strict';
/**
 * read: how close an authenticated read of one project comes to what the framework alone
 * can serve, on both storage set-ups, and how fast and how small the server starts.
 *
 * In this process, on 127.0.0.1:
 *   ceiling   a bare NestJS-on-express app whose GET /projects/:id returns a constant JSON body
 *             (the same bytes Baton returns), i.e. the framework's own cost;
 *   postgres  Baton in hosted mode on a fresh Postgres database, one workspace (that of a person
 *             signed in), one project, GET /projects/{id} with an API token of the workspace;
 *   cookie    the same read with that person's web-session cookie instead of the token (the
 *             two share the measured time in alternating rounds: bearer, cookie, cookie, bearer, ...);
 *   sqlite    Baton self-hosted on a fresh SQLite file, one project, GET /projects/{id}.
 * Each is driven by autocannon for the same time with the same connections, one after the
 * other. Then the command `npm start` runs (node, its flags, dist/src/main.js) is started several times on a fresh SQLite data
 * directory to time GET /health and read the idle RSS.
 *
 * Settings (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3),
 * BENCH_CONNECTIONS (default 50), BENCH_ROUNDS (alternating rounds of bearer and cookie, default 2), BENCH_WORKERS (load-generator threads, default 1; 0 runs
 * it on the main thread), BENCH_COLD_RUNS (default 5), BENCH_SETTLE_MS (default 2000),
 * BENCH_PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test),
 * BENCH_STRICT=1 (exit 3 when a target is missed).
 */
const { createHmac, randomBytes } = require('node:crypto');
const path = require('node:path');
const { measure } = require('./lib/load');
const { createDatabase, ADMIN_URL, replay } = require('./lib/postgres');
const { startBaton, startCeiling, request } = require('./lib/servers');
const { coldStart, startCommand } = require('./lib/cold-start');
const { median, pad, ratio, verdict } = require('./lib/figures');
const { loadSettings, setting } = require('./lib/settings');
const { stopOnInterrupt } = require('./lib/interrupt');

const TARGETS = {
  postgres_ratio_min: 0.7,
  postgres_p99_ms_max: 10,
  sqlite_ratio_min: 0.7,
  sqlite_p99_ms_max: 10,
  cookie_bearer_ratio_min: 0.9,
  cold_start_ms_max: 1000,
  idle_rss_mb_max: 100,
};

async function run({ root }) {
  const opts = {
    ...loadSettings({ duration: 10, warmup: 3, rounds: 2 }),
    coldRuns: setting('BENCH_COLD_RUNS', 5, 1),
    settleMs: setting('BENCH_SETTLE_MS', 2000, 0),
  };
  // express reads NODE_ENV when an app is created: every server here runs as in production.
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { ApiTokens } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'api-tokens.service'));
  const { APP_CONFIG } = require(path.join(root, 'dist', 'src', 'config', 'config.module'));
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex') };

  console.log(
    `read: GET /projects/{id}, ${opts.connections} connections, ${opts.duration} s measured after ${opts.warmup} s warm-up, ` +
      `load generator on ${opts.workers > 0 ? `${opts.workers} worker thread(s)` : 'the main thread'}`,
  );

  const closers = [];
  const check = stopOnInterrupt();

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
    const person = await signedIn(root, hosted.app, 'bench@example.test');
    const token = await hosted.app.get(ApiTokens).createToken(person.tenantId, 'bench');
    const hostedProject = (await request('POST', `${hosted.url}/projects`, { token, body: { name: 'bench' }, expect: 201 })).json;
    const hostedPath = `/projects/${hostedProject.id}`;
    // The read Baton sends to Postgres for this request (scope, statement, values), for the database-only figure.
    const read = await captureRead(root, /FROM "projects"/, () => request('GET', hosted.url + hostedPath, { token }));
    const hostedBody = (await request('GET', hosted.url + hostedPath, { token })).json;
    await request('GET', hosted.url + hostedPath, { expect: 401 }); // the route is really authenticated
    const byCookie = await fetch(hosted.url + hostedPath, { headers: { cookie: person.cookie } });
    if (byCookie.status !== 200 || (await byCookie.text()) !== JSON.stringify(hostedBody)) throw new Error(`the cookie read answered ${byCookie.status}`);

    // --- the ceiling, answering with the same JSON
    const ceiling = await startCeiling(root, hostedBody);
    closers.push(() => ceiling.close());
    await request('GET', ceiling.url + hostedPath);
    check();

    const load = { connections: opts.connections, duration: opts.duration, warmup: opts.warmup, workers: opts.workers };
    const results = {};
    const print = (key, label, r, extra = '') => {
      const bad = r.ok ? '' : `  (errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx})`;
      console.log(`${pad(key, 9)} ${pad(`(${label})`, 38)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50_ms} ms  p99 ${r.p99_ms} ms${extra}${bad}`);
    };
    check();
    results.ceiling = await measure({ url: ceiling.url + hostedPath, ...load });
    print('ceiling', 'bare NestJS/express, constant JSON', results.ceiling);
    // Bearer and cookie alternate (bearer first, then cookie first, ...), so that other work on the
    // machine weighs on both alike; the server thread's CPU time per request is the steadier figure.
    const doors = { postgres: { authorization: `Bearer ${token}` }, cookie: { cookie: person.cookie } };
    const parts = { postgres: [], cookie: [] };
    for (let round = 0; round < opts.rounds; round++) {
      for (const key of round % 2 ? ['cookie', 'postgres'] : ['postgres', 'cookie']) {
        check();
        const door = { url: hosted.url + hostedPath, headers: doors[key], ...load, warmup: 0 };
        if (round === 0 && load.warmup > 0) await measure({ ...door, duration: load.warmup });
        const cpu0 = process.threadCpuUsage();
        const part = await measure({ ...door, duration: load.duration / opts.rounds });
        const cpu = process.threadCpuUsage(cpu0);
        parts[key].push({ ...part, cpu_us: cpu.user + cpu.system });
      }
    }
    results.postgres = combine(parts.postgres);
    results.cookie = combine(parts.cookie);
    const cookieCpu = ratio(results.cookie.cpu_us_per_request, results.postgres.cpu_us_per_request);
    print(
      'postgres',
      'Baton hosted, bearer token',
      results.postgres,
      `  ratio ${ratio(results.postgres.rps, results.ceiling.rps).toFixed(3)}  CPU ${results.postgres.cpu_us_per_request} µs/req`,
    );
    print(
      'cookie',
      'Baton hosted, session cookie',
      results.cookie,
      `  ratio ${ratio(results.cookie.rps, results.ceiling.rps).toFixed(3)}  CPU ${results.cookie.cpu_us_per_request} µs/req  cookie/bearer ${ratio(results.cookie.rps, results.postgres.rps).toFixed(3)} (CPU ${cookieCpu.toFixed(3)})`,
    );
    check();
    results.sqlite = await measure({ url: sqlite.url + sqlitePath, ...load });
    print('sqlite', 'Baton self-hosted', results.sqlite, `  ratio ${ratio(results.sqlite.rps, results.ceiling.rps).toFixed(3)}`);

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
    const coldMs = Math.round(median(cold.map((c) => c.ready_ms)));
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
    const cookieRatio = ratio(results.cookie.rps, results.postgres.rps);
    const met = {
      postgres_ratio: pgRatio >= TARGETS.postgres_ratio_min,
      postgres_p99: results.postgres.p99_ms < TARGETS.postgres_p99_ms_max,
      sqlite_ratio: sqliteRatio >= TARGETS.sqlite_ratio_min,
      sqlite_p99: results.sqlite.p99_ms < TARGETS.sqlite_p99_ms_max,
      cookie_bearer_ratio: cookieRatio >= TARGETS.cookie_bearer_ratio_min,
      cold_start: coldMs < TARGETS.cold_start_ms_max,
      idle_rss: rssMb !== undefined && rssMb < TARGETS.idle_rss_mb_max,
    };
    console.log(`ratio postgres/ceiling ${pgRatio.toFixed(3)} (target >= ${TARGETS.postgres_ratio_min}): ${verdict(met.postgres_ratio)}`);
    console.log(`p99 postgres ${results.postgres.p99_ms} ms (target < ${TARGETS.postgres_p99_ms_max} ms): ${verdict(met.postgres_p99)}`);
    console.log(
      `ratio cookie/bearer ${cookieRatio.toFixed(3)} (target >= ${TARGETS.cookie_bearer_ratio_min}): ${verdict(met.cookie_bearer_ratio)}; ` +
        `server CPU per request cookie/bearer ${ratio(results.cookie.cpu_us_per_request, results.postgres.cpu_us_per_request).toFixed(3)} (no target)`,
    );
    console.log(`ratio sqlite/ceiling ${sqliteRatio.toFixed(3)} (target >= ${TARGETS.sqlite_ratio_min}): ${verdict(met.sqlite_ratio)}`);
    console.log(`p99 sqlite ${results.sqlite.p99_ms} ms (target < ${TARGETS.sqlite_p99_ms_max} ms): ${verdict(met.sqlite_p99)}`);
    console.log(`cold start ${coldMs} ms (target < ${TARGETS.cold_start_ms_max} ms): ${verdict(met.cold_start)}`);
    console.log(`idle RSS ${rssMb ?? '?'} MB (target < ${TARGETS.idle_rss_mb_max} MB): ${verdict(met.idle_rss)}`);
    const clean = [results.ceiling, results.postgres, results.cookie, results.sqlite].every((r) => r.ok);
    if (!clean) console.log('WARNING: some requests failed during the load; the figures above are not comparable');

    const summary = {
      bench: 'read',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      settings: opts,
      ceiling: results.ceiling,
      postgres: { ...results.postgres, ratio: pgRatio },
      cookie: { ...results.cookie, ratio: ratio(results.cookie.rps, results.ceiling.rps), cookie_bearer_ratio: cookieRatio },
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

/** The rounds of one door as one figure: requests per second averaged, the worse latencies kept, server CPU per request. */
function combine(halves) {
  const sum = (key) => halves.reduce((n, h) => n + h[key], 0);
  return {
    rps: Math.round(sum('rps') / halves.length),
    cpu_us_per_request: Math.round((sum('cpu_us') / Math.max(1, sum('requests'))) * 10) / 10,
    requests: sum('requests'),
    p50_ms: Math.max(...halves.map((h) => h.p50_ms)),
    p99_ms: Math.max(...halves.map((h) => h.p99_ms)),
    max_ms: Math.max(...halves.map((h) => h.max_ms)),
    errors: sum('errors'),
    timeouts: sum('timeouts'),
    non2xx: sum('non2xx'),
    ok: halves.every((h) => h.ok),
  };
}

/**
 * A person signed in to `app` as a sign-in flow's last step signs them in (their workspace
 * provisioned), and the `Cookie` header of their web session, signed as cookie-parser checks it.
 */
async function signedIn(root, app, email) {
  const dist = (...parts) => require(path.join(root, 'dist', 'src', ...parts));
  const { Accounts } = dist('modules', 'accounts', 'accounts.service');
  const { WebSessions } = dist('modules', 'accounts', 'web-sessions.service');
  const { sessionCookieName } = dist('modules', 'accounts', 'session-cookie');
  const { APP_CONFIG } = dist('config', 'config.module');
  const config = app.get(APP_CONFIG);
  const { accountId, tenantId } = await app.get(Accounts).signInAs({ provider: 'magic', subject: email, email, emailVerified: true });
  let secret = '';
  const res = { cookie: (_name, value) => void (secret = value) };
  await app.get(WebSessions).start({ headers: { 'user-agent': 'baton-bench' }, signedCookies: {} }, res, accountId, tenantId, 'magic');
  const signed = `s:${secret}.${createHmac('sha256', config.sessionSecret).update(secret).digest('base64').replace(/=+$/, '')}`;
  return { tenantId, cookie: `${sessionCookieName(config)}=${encodeURIComponent(signed)}` };
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
