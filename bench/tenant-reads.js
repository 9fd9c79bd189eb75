'use strict';
/**
 * tenant-reads: `GET /projects/{id}` with each tenant's own API token, spread round-robin over many
 * hosted tenants, against the same load over 10 tenants: on the first pass after a restart (every
 * cache cold) and warm.
 *
 * Setup, once: a fresh Postgres database, BENCH_TENANTS hosted tenants made as an upgrade finds
 * them (role, schema and control-plane row in batches of SQL, then the built `npm run migrate`),
 * one API token each (rows of control.api_tokens), and one project each (POST /projects with the
 * tenant's token, through a Baton process that is then stopped).
 *
 * Then BENCH_ROUNDS rounds. In each, for 10 tenants and for BENCH_TENANTS tenants (in alternating
 * order from round to round), a new Baton process is started as production starts it (`npm start`'s
 * command), so its token cache, tenant scopes, statement caches and Postgres connections (with
 * their catalog caches) are all cold, and:
 *
 *   cold   a pass of BENCH_TENANTS requests over BENCH_CONNECTIONS connections, each request to the
 *          next tenant in turn: over BENCH_TENANTS tenants it reads every tenant once (each read is
 *          that tenant's first), over 10 tenants only the first 10 are;
 *   warm   then BENCH_DURATION seconds of the same round-robin, every tenant having been read.
 *
 * Printed per round and pass: requests/s, p50/p99, and the CPU time per request of the Baton
 * process and of the database's client backends (/proc); then the medians, the two ratios
 * (many/10, each the median of the rounds' ratios) against the goal BENCH_GOAL (0.9), the ratio
 * the CPU per request alone would give (what bounds it on a machine whose cores are all busy), and
 * the figure rows.
 *
 * Settings (environment): BENCH_TENANTS (1000), BENCH_CONNECTIONS (16), BENCH_DURATION (warm,
 * s, 5), BENCH_ROUNDS (3), BENCH_GOAL (0.9), BENCH_MIGRATE_CONCURRENCY (4),
 * BENCH_PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test).
 */
const { randomBytes, randomUUID } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { cpuSeconds } = require('./lib/cpu');
const { figureRow, median, pad, printFigures, ratio } = require('./lib/figures');
const { stopOnInterrupt } = require('./lib/interrupt');
const { measure } = require('./lib/load');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startProcess, request } = require('./lib/servers');
const { setting } = require('./lib/settings');
const { addBareTenants, runMigrate } = require('./lib/tenants');
const { closeAll } = require('./lib/closers');

/** The few tenants the many are compared with. */
const FEW = 10;

/** One API token per tenant, as ApiTokens.issue stores it (the hash), in one statement; the tokens in tenant order. */
async function addTokens(pg, tenantIds, util) {
  const tokens = tenantIds.map(() => util.generateApiToken());
  const rows = tenantIds.map(
    (id, i) => `('${randomUUID()}', '${id}', 'bench', '${util.hashApiToken(tokens[i])}', '${tokens[i].slice(0, util.TOKEN_PREFIX_SHOWN)}', now(), 'full')`,
  );
  await pg.query(`INSERT INTO control.api_tokens (id, tenant_id, name, token_hash, token_prefix, created_at, scope) VALUES ${rows.join(', ')}`);
  return tokens;
}

/** `work` on each of `items`, `concurrency` at a time. */
async function eachLimited(items, concurrency, work) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

/**
 * Requests for autocannon that go round-robin over `targets` ({ path, authorization }): every
 * request built takes the next target, whichever connection sends it. `from` is where the turn
 * starts.
 */
function roundRobin(targets, from = 0) {
  let turn = from;
  return [
    {
      method: 'GET',
      setupRequest(req) {
        const t = targets[turn++ % targets.length];
        return { ...req, path: t.path, headers: { ...req.headers, authorization: t.authorization } };
      },
    },
  ];
}

async function run() {
  const opts = {
    tenants: setting('BENCH_TENANTS', 1000, FEW + 1),
    connections: setting('BENCH_CONNECTIONS', 16, 1),
    duration: setting('BENCH_DURATION', 5, 1),
    rounds: setting('BENCH_ROUNDS', 3, 1),
    goal: setting('BENCH_GOAL', 0.9, 0),
    migrateConcurrency: setting('BENCH_MIGRATE_CONCURRENCY', 4, 1),
  };
  const root = path.resolve(__dirname, '..');
  const util = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'api-token.util'));
  const cores = os.cpus().length;
  console.log(
    `tenant-reads: GET /projects/{id} round-robin over ${FEW} and ${opts.tenants} hosted tenants (one token and project each), ` +
      `${opts.connections} connections; cold: the first ${opts.tenants} requests of a new process; warm: then ${opts.duration} s; ${opts.rounds} rounds`,
  );
  console.log(`machine: ${cores} cores (os.cpus().length), ${os.cpus()[0]?.model ?? 'unknown model'}, ${Math.round(os.totalmem() / 1e9)} GB`);

  const closers = [];
  const check = stopOnInterrupt();
  try {
    const db = await createDatabase('baton_bench_tenants');
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    const env = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' };
    const pg = new Client({ connectionString: db.url });
    await pg.connect();
    closers.push(() => pg.end());

    // --- The tenants, their tokens and projects, through a Baton process that migrates the control plane first.
    const setupStarted = Date.now();
    const setup = await startProcess(root, env);
    let targets;
    try {
      await addBareTenants(pg, opts.tenants);
      const migrated = await runMigrate(root, env, ['--concurrency', String(opts.migrateConcurrency)]);
      if (migrated.code !== 0) throw new Error(`npm run migrate failed (exit ${migrated.code}):\n${migrated.stderr}`);
      const { rows } = await pg.query('SELECT id FROM control.tenants ORDER BY created_at, id');
      const tokens = await addTokens(
        pg,
        rows.map((r) => r.id),
        util,
      );
      targets = new Array(tokens.length);
      await eachLimited(tokens, 8, async (token, i) => {
        const project = (await request('POST', `${setup.url}/projects`, { token, body: { name: `bench ${i}` }, expect: 201 })).json;
        targets[i] = { path: `/projects/${project.id}`, authorization: `Bearer ${token}` };
      });
      await request('GET', `${setup.url}${targets[0].path}`, { expect: 401 }); // the route is really authenticated
    } finally {
      await setup.close();
    }
    console.log(`setup: ${opts.tenants} tenants, tokens and projects in ${Math.round((Date.now() - setupStarted) / 1000)} s`);

    // Baton's connections only: not this one, nor autovacuum's workers (which come whenever they like).
    const backendPids = async () =>
      (await pg.query("SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'", [db.name])).rows.map((r) => r.pid);
    /** One measured pass over `over` targets on `baton`, with the CPU it cost per request. */
    const pass = async (baton, over, load) => {
      const pids0 = await backendPids();
      const pg0 = new Map(pids0.map((pid) => [pid, cpuSeconds(pid)]));
      const baton0 = cpuSeconds(baton.pid);
      const m = await measure({ url: baton.url, connections: opts.connections, workers: 0, warmup: 0, requests: roundRobin(over, load.from), ...load });
      const batonCpu = cpuSeconds(baton.pid) - baton0;
      // Backends opened during the pass count from their start (0 before it).
      const pgCpu = (await backendPids()).reduce((s, pid) => s + cpuSeconds(pid) - (pg0.get(pid) ?? 0), 0);
      const perReq = (s) => Math.round((s * 1e6) / Math.max(m.requests, 1));
      return { ...m, baton_us_per_req: perReq(batonCpu), postgres_us_per_req: perReq(pgCpu) };
    };

    const sets = { few: targets.slice(0, FEW), many: targets };
    const rounds = [];
    for (let round = 0; round < opts.rounds; round++) {
      const result = {};
      for (const key of round % 2 ? ['many', 'few'] : ['few', 'many']) {
        check();
        const baton = await startProcess(root, env);
        try {
          const cold = await pass(baton, sets[key], { amount: opts.tenants, from: 0 });
          const warm = await pass(baton, sets[key], { duration: opts.duration, from: opts.tenants });
          result[key] = { cold, warm };
        } finally {
          await baton.close();
        }
        const line = (name, r) =>
          `round ${round + 1} ${pad(`${key === 'few' ? FEW : opts.tenants} tenants ${name}`, 20)} ${String(r.rps).padStart(6)} req/s  p50 ${r.p50_ms} ms  p99 ${r.p99_ms} ms  ` +
          `Baton ${r.baton_us_per_req} µs/req, Postgres ${r.postgres_us_per_req} µs/req` +
          (r.ok ? '' : `  (${r.errors} errors, ${r.timeouts} timeouts, ${r.non2xx} non-2xx: not comparable)`);
        console.log(line('cold', result[key].cold));
        console.log(line('warm', result[key].warm));
      }
      rounds.push(result);
    }

    const med = (key, phase, field) => median(rounds.map((r) => r[key][phase][field]));
    const summary = {};
    for (const phase of ['cold', 'warm']) {
      // Each round's ratio compares two passes run one after the other; the figure is their median.
      const ratios = rounds.map((r) => ratio(r.many[phase].rps, r.few[phase].rps));
      summary[phase] = {
        few_rps: med('few', phase, 'rps'),
        many_rps: med('many', phase, 'rps'),
        ratio: median(ratios),
        ratios,
        few_baton_us: med('few', phase, 'baton_us_per_req'),
        many_baton_us: med('many', phase, 'baton_us_per_req'),
        few_postgres_us: med('few', phase, 'postgres_us_per_req'),
        many_postgres_us: med('many', phase, 'postgres_us_per_req'),
      };
      // What the ratio would be were the machine's cores the only bound: the CPU of a request, Baton's and Postgres's.
      summary[phase].cpu_ratio = ratio(summary[phase].few_baton_us + summary[phase].few_postgres_us, summary[phase].many_baton_us + summary[phase].many_postgres_us);
      const s = summary[phase];
      console.log(
        `${phase}: ${opts.tenants} tenants ${s.many_rps} req/s vs ${FEW} tenants ${s.few_rps} req/s (medians); ratio ${s.ratio} (median of the rounds' ${s.ratios.join(', ')}), goal >= ${opts.goal}; ` +
          `CPU per request ${s.many_baton_us} vs ${s.few_baton_us} µs Baton, ${s.many_postgres_us} vs ${s.few_postgres_us} µs Postgres (CPU ratio ${s.cpu_ratio})`,
      );
    }
    const allOk = rounds.every((r) => ['few', 'many'].every((k) => r[k].cold.ok && r[k].warm.ok));
    const figures = ['cold', 'warm'].map((phase) =>
      figureRow({
        figure: `${opts.tenants} tenants / ${FEW} tenants, ${phase === 'cold' ? 'first pass after a restart' : 'warm'}`,
        value: summary[phase].ratio,
        ceiling: opts.goal,
        goal: 'above',
        comparable: allOk,
      }),
    );
    console.log('');
    printFigures(figures);
    console.log(JSON.stringify({ bench: 'tenant-reads', node: process.version, cores, settings: opts, rounds, summary, all_requests_ok: allOk, figures }));
  } finally {
    await closeAll(closers);
  }
}

module.exports = { run };
