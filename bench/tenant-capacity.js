'use strict';
/**
 * tenant-capacity: how many hosted tenant schemas one Postgres server holds, measured at growing
 * numbers of tenants on a cluster of the benchmark's own (so every figure is that server's alone).
 *
 *   npm run build && npm run bench -- tenant-capacity              steps 0 100 250 500 1000
 *   npm run bench -- tenant-capacity 0 20 50                       a quick run
 *
 * Baton runs hosted in this process on a fresh database of the private cluster (the control plane
 * migrated at start, as main.js does). At each step the server is first filled to that many tenants
 * the way an upgrade finds them (role, empty schema and control-plane row made in batches of SQL,
 * then `npm run migrate` applies every tenant migration: the real migration path), then measured:
 *
 *   catalog     pg_class / pg_attribute / pg_depend rows, pg_total_relation_size of the pg_catalog
 *               tables, pg_database_size, and the tables a whole-database pg_dump locks;
 *   backend     the memory of one connection (sum of pg_backend_memory_contexts, and its
 *               CacheMemoryContext subtree: relcache and catcache) after one read of each schema's
 *               projects table (a tenant lookup), and on another connection after one read touching
 *               every table of each schema (what a pooled connection reaches once it has served
 *               every kind of request of every tenant), beside a fresh connection's;
 *   pg_dump     `pg_dump --schema-only` of the whole database, and of one tenant's schema (`-n`);
 *   upgrade     one new tenant migration on every tenant: the newest tenant migration is taken
 *               back out of every tenant with its own down() (not timed), then `npm run migrate
 *               --dry-run` and `npm run migrate` are run and timed as a deploy runs them;
 *   provision   TenantProvisioning.provision (role, schema, every migration, control-plane row,
 *               token), BENCH_PROVISION_RUNS times, the median.
 *
 * Each figure is printed per step with its ratio to the same figure at the first step (the empty
 * server, measured in the same run), then the growth per 1,000 tenants between the last two steps,
 * the number of tenants at which each judged figure reaches its ceiling (between the two steps
 * that bracket it, else extrapolated from the last two), and the figure rows (value against the
 * ceiling, which for these absolute figures is the goal itself; bench/README.md).
 *
 * Settings (environment): BENCH_STEPS (comma-separated, when no step is given as an argument),
 * BENCH_CONCURRENCY (npm run migrate --concurrency, default 4 as the Helm chart), BENCH_PROVISION_RUNS
 * (3), ceilings BENCH_DEPLOY_WINDOW_S (300), BENCH_PROVISION_S (3), BENCH_BACKEND_MB (128),
 * BENCH_CATALOG_MB (1024), BENCH_DUMP_S (120), server settings BENCH_PG_MAX_LOCKS
 * (max_locks_per_transaction, 1024: a whole-database pg_dump locks every table) and BENCH_PG_FSYNC
 * (on), BENCH_DUMP_TIMEOUT_S (twice BENCH_DUMP_S: a pg_dump still running then is stopped and
 * counted as that long), BENCH_STRICT=1 (exit 3 when a ceiling is passed or a step failed).
 */
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { figureRow, median, pad, printFigures, ratio } = require('./lib/figures');
const { startPrivatePostgres } = require('./lib/private-postgres');
const { startBaton } = require('./lib/servers');
const { setting } = require('./lib/settings');
const { stopOnInterrupt } = require('./lib/interrupt');
const { addBareTenants, runMigrate } = require('./lib/tenants');
const { closeAll } = require('./lib/closers');

const DEFAULT_STEPS = [0, 100, 250, 500, 1000];
const MB = 1e6;

const round = (x, digits = 2) => (x === null || x === undefined ? null : Math.round(x * 10 ** digits) / 10 ** digits);
const seconds = (since) => round(Number(process.hrtime.bigint() - since) / 1e9, 3);

/** The steps from the arguments, else BENCH_STEPS, else the default; refused unless ascending whole numbers. */
function stepsOf(args) {
  const words = args.length > 0 ? args : (process.env.BENCH_STEPS ?? '').split(',').filter((w) => w.trim() !== '');
  if (words.length === 0) return DEFAULT_STEPS;
  const steps = words.map((w) => Number(w));
  if (steps.some((n) => !Number.isInteger(n) || n < 0) || steps.some((n, i) => i > 0 && n <= steps[i - 1])) {
    throw new Error(`tenant counts must be whole numbers >= 0 in ascending order, got: ${words.join(' ')}`);
  }
  return steps;
}

/**
 * `pg_dump --schema-only` (plus `extra`) to a pipe whose bytes are counted: its time, or its error;
 * one still running after `timeoutS` is stopped and reported as having taken that long (`stopped`).
 */
function pgDump(cluster, database, timeoutS, extra = []) {
  const started = process.hrtime.bigint();
  const child = spawn(path.join(cluster.bin, 'pg_dump'), ['--schema-only', '-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', ...extra, database], {
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let bytes = 0;
  let stderr = '';
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    child.kill('SIGTERM');
  }, timeoutS * 1000);
  child.stdout.on('data', (d) => (bytes += d.length));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (stopped) resolve({ seconds: timeoutS, stopped: true });
      else if (code === 0) resolve({ seconds: seconds(started), mb: round(bytes / MB, 1) });
      else resolve({ seconds: null, error: stderr.trim().split('\n').slice(-2).join(' ') || `exit status ${code}` });
    });
  });
}

/** Catalog rows and sizes of the database, and the tables (relkind r/p) a whole-database pg_dump locks. */
async function catalog(pg) {
  const { rows } = await pg.query(`SELECT
      (SELECT count(*) FROM pg_class)::int AS pg_class,
      (SELECT count(*) FROM pg_attribute)::int AS pg_attribute,
      (SELECT count(*) FROM pg_depend)::int AS pg_depend,
      (SELECT count(*) FROM pg_class WHERE relkind IN ('r', 'p') AND relnamespace <> 'pg_catalog'::regnamespace AND relnamespace <> 'information_schema'::regnamespace)::int AS tables,
      (SELECT sum(pg_total_relation_size(oid)) FROM pg_class WHERE relnamespace = 'pg_catalog'::regnamespace AND relkind = 'r')::bigint AS catalog_bytes,
      pg_database_size(current_database())::bigint AS database_bytes`);
  const r = rows[0];
  return {
    pg_class: r.pg_class,
    pg_attribute: r.pg_attribute,
    pg_depend: r.pg_depend,
    tables: r.tables,
    catalog_mb: round(Number(r.catalog_bytes) / MB, 1),
    database_mb: round(Number(r.database_bytes) / MB, 1),
  };
}

/**
 * The connection's own memory (pg_backend_memory_contexts): the sum of every context, and of the
 * CacheMemoryContext subtree (the view lists contexts depth first, each with its level).
 */
async function memoryOf(client) {
  const { rows } = await client.query('SELECT name, level, total_bytes FROM pg_backend_memory_contexts');
  let total = 0;
  let cache = 0;
  let cacheLevel = null;
  for (const r of rows) {
    total += Number(r.total_bytes);
    if (cacheLevel !== null && r.level <= cacheLevel) cacheLevel = null;
    if (cacheLevel === null && r.name === 'CacheMemoryContext') cacheLevel = r.level;
    if (cacheLevel !== null) cache += Number(r.total_bytes);
  }
  return { total_mb: round(total / MB, 1), cache_mb: round(cache / MB, 1) };
}

/**
 * A backend's memory after reading each tenant schema once on a fresh connection: `lookup` reads
 * the projects table, `every table` one statement per schema touching each of its tables. Also
 * how long the every-table reads took per schema (a cold relcache: what the first request of a
 * tenant on a pooled connection pays).
 */
async function backendMemory(url, Client) {
  const open = async () => {
    const c = new Client({ connectionString: url });
    await c.connect();
    return c;
  };
  const meta = await open();
  const fresh = await memoryOf(meta);
  const { rows } = await meta.query(
    `SELECT t.schema_name, array_agg(c.relname::text ORDER BY c.relname) AS tables
       FROM control.tenants t JOIN pg_class c ON c.relnamespace = t.schema_name::regnamespace AND c.relkind = 'r'
      GROUP BY t.schema_name`,
  );
  await meta.end();
  const q = (s) => `"${s.replace(/"/g, '""')}"`;
  const result = { fresh };
  for (const mode of ['lookup', 'every table']) {
    const c = await open();
    try {
      const started = process.hrtime.bigint();
      for (const { schema_name: schema, tables } of rows) {
        if (mode === 'lookup') await c.query(`SELECT 1 FROM ${q(schema)}.projects LIMIT 1`);
        else await c.query(`SELECT ${tables.map((t, i) => `(SELECT 1 FROM ${q(schema)}.${q(t)} LIMIT 1) AS t${i}`).join(', ')}`);
      }
      const took = seconds(started);
      result[mode === 'lookup' ? 'lookup' : 'every_table'] = { ...(await memoryOf(c)), ms_per_schema: rows.length ? round((took * 1000) / rows.length, 2) : null };
    } finally {
      await c.end();
    }
  }
  return result;
}

/**
 * Takes the newest tenant migration back out of every tenant that has it, with its own down()
 * (one transaction per tenant, as the tenant's role, `concurrency` at a time), so that the next
 * `npm run migrate` has exactly one migration to apply to each: a release's upgrade.
 */
async function takeBackLatest(url, Pool, migrations, concurrency) {
  const Latest = migrations[migrations.length - 1];
  const latest = new Latest().name;
  const previous = new migrations[migrations.length - 2]().name;
  const pool = new Pool({ connectionString: url, max: concurrency });
  try {
    const { rows } = await pool.query('SELECT schema_name, role_name FROM control.tenants WHERE migrated_to = $1', [latest]);
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        const client = await pool.connect();
        const runner = { query: async (sql, params) => (await client.query(sql, params)).rows };
        try {
          while (next < rows.length) {
            const { schema_name: schema, role_name: role } = rows[next++];
            await client.query('BEGIN');
            await client.query(`SET LOCAL search_path TO "${schema}"`);
            await client.query(`SET LOCAL ROLE "${role}"`);
            await new Latest().down(runner);
            await client.query('DELETE FROM baton_migrations WHERE name = $1', [latest]);
            await client.query('COMMIT');
          }
        } catch (error) {
          await client.query('ROLLBACK').catch(() => undefined);
          throw error;
        } finally {
          client.release();
        }
      }),
    );
    await pool.query('UPDATE control.tenants SET migrated_to = $1 WHERE migrated_to = $2', [previous, latest]);
    return { latest, tenants: rows.length };
  } finally {
    await pool.end();
  }
}

/**
 * Where a figure reaches `ceiling`, from its points (tenants, value) in ascending order: between
 * the two steps that bracket it when a step passed it, else extrapolated from the last two steps
 * (the steepest part of a figure that grows faster than linearly); null when it does not grow.
 * Also the growth per 1,000 tenants between the last two steps.
 */
function reachOf(points, ceiling) {
  const [x0, y0] = points.at(-2);
  const [x1, y1] = points.at(-1);
  const slope = (y1 - y0) / (x1 - x0);
  const past = points.findIndex(([, y]) => y >= ceiling);
  let tenants = null;
  if (past === 0) tenants = points[0][0];
  else if (past > 0) {
    const [a, ya] = points[past - 1];
    const [b, yb] = points[past];
    tenants = Math.floor(a + ((ceiling - ya) * (b - a)) / (yb - ya));
  } else if (slope > 0) tenants = Math.floor(x1 + (ceiling - y1) / slope);
  return { per_1000_tenants: round(slope * 1000, 2), tenants_at_ceiling: tenants };
}

async function run({ root, args }) {
  const steps = stepsOf(args);
  const opts = {
    steps,
    concurrency: setting('BENCH_CONCURRENCY', 4, 1),
    provisionRuns: setting('BENCH_PROVISION_RUNS', 3, 1),
    maxLocks: setting('BENCH_PG_MAX_LOCKS', 1024, 10),
    fsync: process.env.BENCH_PG_FSYNC === 'off' ? 'off' : 'on',
  };
  const ceilings = {
    upgrade_s: setting('BENCH_DEPLOY_WINDOW_S', 300, 1),
    provision_s: setting('BENCH_PROVISION_S', 3, 0.1),
    backend_mb: setting('BENCH_BACKEND_MB', 128, 1),
    catalog_mb: setting('BENCH_CATALOG_MB', 1024, 1),
    dump_s: setting('BENCH_DUMP_S', 120, 1),
  };
  // A whole-database pg_dump still running at twice its ceiling has said enough.
  opts.dumpTimeoutS = setting('BENCH_DUMP_TIMEOUT_S', ceilings.dump_s * 2, 1);
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { Client, Pool } = require(path.join(root, 'node_modules', 'pg'));
  const { TENANT_MIGRATIONS } = require(path.join(root, 'dist', 'migrations', 'tenant'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));

  const cores = os.cpus().length;
  const machine = { cores, model: os.cpus()[0]?.model ?? 'unknown', memory_gb: Math.round(os.totalmem() / 1e9) };
  console.log(`tenant-capacity: tenant schemas on one Postgres server at ${steps.join(' / ')} tenants; migrate concurrency ${opts.concurrency}`);
  console.log(`machine: ${cores} cores (os.cpus().length), ${machine.model}, ${machine.memory_gb} GB`);

  const closers = [];
  const check = stopOnInterrupt();

  const measured = [];
  let postgres;
  try {
    const cluster = await startPrivatePostgres({ fsync: opts.fsync, max_locks_per_transaction: opts.maxLocks });
    closers.push(() => cluster.destroy());
    const admin = new Client({ connectionString: cluster.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE baton');
    const { rows: settings } = await admin.query(
      "SELECT name, setting, unit FROM pg_settings WHERE name IN ('server_version', 'shared_buffers', 'max_connections', 'max_locks_per_transaction', 'fsync', 'max_worker_processes', 'autovacuum_max_workers', 'max_wal_senders', 'max_prepared_transactions') ORDER BY name",
    );
    await admin.end();
    postgres = Object.fromEntries(settings.map((s) => [s.name, s.unit === '8kB' ? `${(Number(s.setting) * 8) / 1024}MB` : s.setting]));
    console.log(`postgres: private cluster ${cluster.version} on port ${cluster.port}: ${settings.map((s) => `${s.name}=${postgres[s.name]}`).join(', ')}`);

    const url = cluster.url('baton');
    const env = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), SERVICE_MODE: 'hosted', SERVICE_DB_URL: url, APP_URL: 'http://127.0.0.1' };
    const baton = await startBaton(root, env);
    closers.push(() => baton.close());
    const provisioning = baton.app.get(TenantProvisioning);
    const pg = new Client({ connectionString: url });
    await pg.connect();
    closers.push(() => pg.end());
    const tenantCount = async () => (await pg.query('SELECT count(*)::int AS n FROM control.tenants')).rows[0].n;

    for (const target of steps) {
      check();
      const step = { tenants: target };
      const have = await tenantCount();
      if (target > have) {
        // Fill to the step: empty schemas, then every tenant migration by the real command.
        await addBareTenants(pg, target - have);
        const fill = await runMigrate(root, env, ['--concurrency', String(opts.concurrency)]);
        if (fill.code !== 0) throw new Error(`npm run migrate failed filling to ${target} tenants (exit ${fill.code}):\n${fill.stderr}`);
        step.fill = {
          tenants: target - have,
          seconds: fill.summary.tenants?.seconds ?? fill.seconds,
          per_s: round((target - have) / (fill.summary.tenants?.seconds || fill.seconds), 1),
        };
        console.log(`${target} tenants: made ${target - have}, all ${TENANT_MIGRATIONS.length} tenant migrations in ${step.fill.seconds} s (${step.fill.per_s} tenants/s)`);
      } else if (target < have) {
        throw new Error(`step ${target} is below the ${have} tenants already made (each step also provisions ${opts.provisionRuns})`);
      }
      check();
      step.catalog = await catalog(pg);
      step.backend = await backendMemory(url, Client);
      check();
      const { rows: one } = await pg.query('SELECT schema_name FROM control.tenants ORDER BY created_at LIMIT 1');
      step.dump = {
        whole: await pgDump(cluster, 'baton', opts.dumpTimeoutS),
        one_schema: one.length ? await pgDump(cluster, 'baton', opts.dumpTimeoutS, ['-n', one[0].schema_name]) : null,
      };
      check();
      const back = await takeBackLatest(url, Pool, TENANT_MIGRATIONS, opts.concurrency);
      const dry = await runMigrate(root, env, ['--dry-run']);
      const up = await runMigrate(root, env, ['--concurrency', String(opts.concurrency)]);
      const t = up.summary.tenants ?? {};
      step.upgrade = {
        migration: back.latest,
        tenants: back.tenants,
        dry_run_s: dry.seconds,
        command_s: up.seconds,
        tenants_s: t.seconds ?? null,
        per_s: t.seconds ? round(t.migrated / t.seconds, 1) : null,
        ok: up.code === 0 && dry.code === 0 && t.migrated === back.tenants && (t.failed ?? 0) === 0,
      };
      if (!step.upgrade.ok) step.upgrade.error = `dry run exit ${dry.code}, run exit ${up.code}: ${up.stderr.trim().split('\n').slice(-3).join(' ')}`;
      check();
      const times = [];
      for (let i = 0; i < opts.provisionRuns; i++) {
        const started = process.hrtime.bigint();
        await provisioning.provision(`capacity step ${target} ${i}`);
        times.push(seconds(started));
      }
      step.provision = { median_s: median(times), runs_s: times };
      measured.push(step);
      const b = step.backend;
      console.log(
        `${target} tenants: ${step.catalog.pg_class} pg_class rows, catalog ${step.catalog.catalog_mb} MB, database ${step.catalog.database_mb} MB; ` +
          `backend ${b.fresh.total_mb} MB fresh, ${b.lookup.total_mb} MB after a lookup per schema, ${b.every_table.total_mb} MB after every table (cache ${b.every_table.cache_mb} MB, ${b.every_table.ms_per_schema ?? '-'} ms per schema); ` +
          `pg_dump ${step.dump.whole.stopped ? `stopped after ${step.dump.whole.seconds}` : (step.dump.whole.seconds ?? `failed: ${step.dump.whole.error}`)} s (${step.catalog.tables} tables locked); upgrade ${step.upgrade.tenants_s} s (command ${step.upgrade.command_s} s, dry run ${step.upgrade.dry_run_s} s); provision ${step.provision.median_s} s`,
      );
    }
    report({ measured, ceilings, machine, postgres, opts });
  } finally {
    await closeAll(closers);
  }
}

/** Prints the table of every step, the growth and reach of each judged figure, the figure rows and the JSON line. */
function report({ measured, ceilings, machine, postgres, opts }) {
  // --- The figures per step, each with its ratio to the first step's (measured in this run).
  const columns = [
    ['pg_class', (s) => s.catalog.pg_class],
    ['pg_attribute', (s) => s.catalog.pg_attribute],
    ['pg_depend', (s) => s.catalog.pg_depend],
    ['catalog MB', (s) => s.catalog.catalog_mb],
    ['database MB', (s) => s.catalog.database_mb],
    ['backend MB (lookup)', (s) => s.backend.lookup.total_mb],
    ['backend MB (every table)', (s) => s.backend.every_table.total_mb],
    ['cache MB (every table)', (s) => s.backend.every_table.cache_mb],
    ['pg_dump s', (s) => s.dump.whole.seconds],
    ['pg_dump -n s', (s) => s.dump.one_schema?.seconds ?? null],
    ['upgrade s', (s) => s.upgrade.tenants_s],
    ['upgrade command s', (s) => s.upgrade.command_s],
    ['dry run s', (s) => s.upgrade.dry_run_s],
    ['provision s', (s) => s.provision.median_s],
  ];
  const base = measured[0];
  console.log('');
  console.log(`${pad('figure', 26)}${measured.map((s) => pad(`${s.tenants} tenants`, 22)).join('')}`);
  for (const [name, of] of columns) {
    const cells = measured.map((s) => {
      const v = of(s);
      const r = v !== null && of(base) ? ` (x${ratio(v, of(base))})` : '';
      return pad(v === null ? '-' : `${v}${s === base ? '' : r}`, 22);
    });
    console.log(`${pad(name, 26)}${cells.join('')}`);
  }

  // --- Growth per 1,000 tenants, and where each ceiling is (or would be) reached.
  const judged = [
    ['upgrade_s', 'one-migration upgrade of every tenant', 's', (s) => s.upgrade.tenants_s],
    ['provision_s', 'provisioning one tenant', 's', (s) => s.provision.median_s],
    ['backend_mb', 'backend memory after every table of every schema', 'MB', (s) => s.backend.every_table.total_mb],
    ['catalog_mb', 'catalog size', 'MB', (s) => s.catalog.catalog_mb],
    ['dump_s', 'pg_dump --schema-only of the database', 's', (s) => s.dump.whole.seconds],
  ];
  const growth = {};
  if (measured.length >= 2) {
    console.log('');
    for (const [key, what, unit, of] of judged) {
      const points = measured.filter((s) => of(s) !== null).map((s) => [s.tenants, of(s)]);
      if (points.length < 2) continue;
      const { per_1000_tenants: per1000, tenants_at_ceiling: reach } = reachOf(points, ceilings[key]);
      growth[key] = { per_1000_tenants: per1000, ceiling: ceilings[key], tenants_at_ceiling: reach };
      console.log(
        `${what}: ${per1000 > 0 ? `+${per1000} ${unit}` : 'no growth'} per 1,000 tenants between the last two steps; ` +
          `the ${ceilings[key]} ${unit} ceiling ${reach === null ? 'not reached at this rate' : `at about ${reach} tenants`}`,
      );
    }
    const perTenant = (key) => round((measured.at(-1).catalog[key] - base.catalog[key]) / Math.max(1, measured.at(-1).tenants - base.tenants), 1);
    console.log(
      `per tenant: ${perTenant('pg_class')} pg_class rows, ${perTenant('pg_attribute')} pg_attribute rows, ${perTenant('pg_depend')} pg_depend rows, ${perTenant('tables')} tables`,
    );
  }

  // --- Figure rows: each step past the first against its ceiling (the goal itself).
  const figures = [];
  for (const s of measured.slice(1)) {
    const at = `${s.tenants} tenants`;
    figures.push(figureRow({ figure: `one-migration upgrade (${at})`, value: s.upgrade.tenants_s, unit: 's', ceiling: ceilings.upgrade_s, comparable: s.upgrade.ok }));
    figures.push(figureRow({ figure: `provision one tenant (${at})`, value: s.provision.median_s, unit: 's', ceiling: ceilings.provision_s }));
    figures.push(figureRow({ figure: `backend memory, every table read (${at})`, value: s.backend.every_table.total_mb, unit: 'MB', ceiling: ceilings.backend_mb }));
    figures.push(figureRow({ figure: `catalog size (${at})`, value: s.catalog.catalog_mb, unit: 'MB', ceiling: ceilings.catalog_mb }));
    figures.push(
      figureRow({
        figure: `pg_dump --schema-only (${at})`,
        value: s.dump.whole.seconds,
        unit: 's',
        ceiling: ceilings.dump_s,
        comparable: s.dump.whole.seconds !== null,
        note: s.dump.whole.error,
      }),
    );
  }
  console.log('');
  printFigures(figures);
  const met = Object.fromEntries(figures.map((f) => [f.figure, f.met]));
  console.log(JSON.stringify({ bench: 'tenant-capacity', node: process.version, machine, postgres, settings: opts, ceilings, steps: measured, growth, figures, met }));
  if (process.env.BENCH_STRICT === '1' && figures.some((f) => !f.met || !f.comparable)) process.exitCode = 3;
}

module.exports = { run };
