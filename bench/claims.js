'use strict';
/**
 * claims: K workers drain N sprint items through Baton's claim route, against a ceiling that
 * runs the very same claim statement directly against the database with K clients.
 *
 *   npm run build && npm run bench -- claims
 *
 * For each storage (Postgres: Baton hosted on a fresh database with one provisioned tenant;
 * SQLite: Baton self-hosted on a fresh file), one project is seeded with N items through
 * sprint-batch and K worker sessions are registered. Then, for each K:
 *   baton    K concurrent HTTP workers call POST /projects/{id}/sprint-items/claim (next
 *            claimable) until it answers claimed: false;
 *   ceiling  the claim statement Baton runs (dist/src/modules/sprint/claim-sql.js) executed
 *            directly: on Postgres K `pg` clients, each sending claimNextAloneSql prepared under
 *            Baton's name, as Baton sends it (without Baton's BEGIN, tenant scope and COMMIT,
 *            which travel in the same write); on SQLite, K better-sqlite3 connections taking
 *            turns in one thread (SQLite runs one writer at a time whatever the clients).
 * The items are reset to pending (and the table vacuumed on Postgres) before every run. Every
 * run is checked: each item claimed exactly once (duplicates), every item claimed (losses),
 * every item in_progress in the database afterwards. The HTTP and `pg` clients run in a worker
 * thread, so they never share an event loop with the server; the SQLite ceiling (synchronous)
 * runs on the main thread while the server is idle.
 *
 * Settings (environment): BENCH_CLAIM_ITEMS (default 10000), BENCH_CLAIM_WORKERS (default
 * 1,4,16,64), BENCH_CLAIM_STORAGE (default postgres,sqlite), BENCH_POOL_SIZE (Baton's
 * SERVICE_DB_POOL_SIZE, default Baton's own default), BENCH_PG_URL (admin connection),
 * BENCH_STRICT=1 (exit 3 when the target is missed).
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isMainThread, parentPort, Worker, workerData } = require('node:worker_threads');
const { closeAll } = require('./lib/closers');
const { figureRow } = require('./lib/figures');

const TARGET = { storage: 'postgres', workers: 64, ratio_min: 0.9, duplicates_max: 0 };
/** One worker alone: every claim pays its whole round trip, nothing overlaps it. */
const TARGET_ONE_WORKER = { storage: 'postgres', workers: 1, ratio_min: 0.6, duplicates_max: 0 };

// ------------------------------------------------------------------ worker thread: the clients

if (!isMainThread) {
  drive(workerData).then(
    (result) => parentPort.postMessage({ ok: true, result }),
    (error) => parentPort.postMessage({ ok: false, error: error instanceof Error ? error.stack : String(error) }),
  );
}

async function drive(job) {
  if (job.mode === 'http') return driveHttp(job);
  if (job.mode === 'pg') return drivePg(job);
  return driveSqlite(job);
}

/** K workers, each a loop: claim the next item over HTTP until none is left. */
async function driveHttp({ url, token, projectId, sessions }) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const claimed = [];
  const latencies = [];
  const errors = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (sessionId) => {
      const body = JSON.stringify({ session_id: sessionId });
      for (;;) {
        const t0 = performance.now();
        let res;
        let text;
        try {
          res = await fetch(`${url}/projects/${projectId}/sprint-items/claim`, { method: 'POST', headers, body });
          text = await res.text();
        } catch (error) {
          errors.push(String(error));
          if (errors.length > 100) return;
          continue;
        }
        const ms = performance.now() - t0;
        if (res.status !== 200) {
          errors.push(`${res.status} ${text.slice(0, 200)}`);
          if (errors.length > 100) return;
          continue;
        }
        const answer = JSON.parse(text);
        if (!answer.claimed) return;
        latencies.push(ms);
        claimed.push(answer.item.id);
      }
    }),
  );
  return { claimed, latencies, elapsed_ms: performance.now() - started, errors };
}

/** K `pg` clients, each looping over the claim statement until it claims nothing. */
async function drivePg({ root, pgUrl, schema, projectId, sessions }) {
  const { Client } = require(path.join(root, 'node_modules', 'pg'));
  const { CLAIM_NEXT_ALONE_NAME, claimNextAloneSql } = require(path.join(root, 'dist', 'src', 'modules', 'sprint', 'claim-sql'));
  // Baton's statement, prepared under Baton's name, as Baton prepares it on each of its connections.
  const statement = { name: CLAIM_NEXT_ALONE_NAME, text: claimNextAloneSql() };
  const clients = await Promise.all(
    sessions.map(async () => {
      const client = new Client({ connectionString: pgUrl });
      await client.connect();
      await client.query(`SET search_path TO "${schema}"`);
      return client;
    }),
  );
  const claimed = [];
  const latencies = [];
  const started = performance.now();
  try {
    await Promise.all(
      clients.map(async (client, i) => {
        for (;;) {
          const t0 = performance.now();
          const { rows } = await client.query({ ...statement, values: [projectId, sessions[i], new Date(), 'ai'] });
          if (rows.length === 0) return;
          latencies.push(performance.now() - t0);
          claimed.push(rows[0].id);
        }
      }),
    );
    return { claimed, latencies, elapsed_ms: performance.now() - started, errors: [] };
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

/** K better-sqlite3 connections taking turns (SQLite has one writer at a time). */
async function driveSqlite({ root, file, projectId, sessions }) {
  const Database = require(path.join(root, 'node_modules', 'better-sqlite3'));
  const { claimNextSql } = require(path.join(root, 'dist', 'src', 'modules', 'sprint', 'claim-sql'));
  const { bindParams, sqlTimestamp } = require(path.join(root, 'dist', 'libs', 'tenancy'));
  const [sql] = bindParams('sqlite', claimNextSql('sqlite'), [1, 2, 3, 4]);
  const order = bindParams('sqlite', claimNextSql('sqlite'), ['$1', '$2', '$3', '$4'])[1];
  const connections = sessions.map(() => {
    const db = new Database(file);
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    return db.prepare(sql);
  });
  const claimed = [];
  const latencies = [];
  const done = new Set();
  const started = performance.now();
  for (let i = 0; done.size < connections.length; i = (i + 1) % connections.length) {
    if (done.has(i)) continue;
    const byName = { $1: projectId, $2: sessions[i], $3: sqlTimestamp('sqlite', new Date()), $4: 'ai' };
    const t0 = performance.now();
    const row = connections[i].get(...order.map((name) => byName[name]));
    if (!row) {
      done.add(i);
      continue;
    }
    latencies.push(performance.now() - t0);
    claimed.push(row.id);
  }
  const elapsed = performance.now() - started;
  connections.forEach((stmt) => stmt.database.close());
  return { claimed, latencies, elapsed_ms: elapsed, errors: [] };
}

// ------------------------------------------------------------------ main thread

function setting(name, fallback) {
  const raw = process.env[name];
  return raw === undefined || raw === '' ? fallback : raw;
}

function inWorker(job) {
  // The SQLite ceiling is synchronous and runs while the server is idle, so a worker thread
  // would add nothing: it runs on the main thread.
  if (job.mode === 'sqlite') return drive(job);
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: job });
    worker.once('message', (m) => (m.ok ? resolve(m.result) : reject(new Error(m.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`client thread exited with ${code}`)));
  });
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Reduces a drive to the figures printed: rate, latency, duplicates, losses. */
function figures(drive, n) {
  const seen = new Map();
  for (const id of drive.claimed) seen.set(id, (seen.get(id) ?? 0) + 1);
  const sorted = [...drive.latencies].sort((a, b) => a - b);
  const round = (x) => Math.round(x * 100) / 100;
  return {
    claims: drive.claimed.length,
    claims_per_s: Math.round(drive.claimed.length / (drive.elapsed_ms / 1000)),
    p50_ms: round(percentile(sorted, 50)),
    p99_ms: round(percentile(sorted, 99)),
    duplicates: [...seen.values()].filter((c) => c > 1).reduce((a, c) => a + c - 1, 0),
    losses: n - seen.size,
    errors: drive.errors.length,
    first_error: drive.errors[0],
  };
}

async function request(method, url, { token, body, expect = 200 } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== expect) throw new Error(`${method} ${url} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

/** One storage: a running Baton, a seeded project, K sessions, and how to reset and inspect its items. */
async function prepare(root, storage, n, maxK, closers) {
  const { startBaton } = require('./lib/servers');
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1', SERVICE_SWEEP_INTERVAL_SECONDS: '0' };
  if (process.env.BENCH_POOL_SIZE) production.SERVICE_DB_POOL_SIZE = process.env.BENCH_POOL_SIZE;
  let baton;
  let token;
  let ops;
  if (storage === 'postgres') {
    const { createDatabase, ADMIN_URL } = require('./lib/postgres');
    const { Client } = require(path.join(root, 'node_modules', 'pg'));
    const { schemaNameFor } = require(path.join(root, 'dist', 'libs', 'tenancy'));
    const db = await createDatabase('baton_bench_claims');
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    baton = await startBaton(root, { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url });
    closers.push(() => baton.close());
    const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
    const tenant = await baton.app.get(TenantProvisioning).provision('bench');
    token = tenant.token;
    const schema = schemaNameFor(tenant.tenant_id);
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    // The tenant's row triggers (history of changes) name their tables without a schema, as Baton's
    // own connections run them inside the tenant's search path: so must this one.
    await admin.query(`SET search_path TO "${schema}"`);
    closers.push(() => admin.end());
    ops = {
      ceiling: (projectId, sessions) => ({ mode: 'pg', root, pgUrl: db.url, schema, projectId, sessions }),
      async reset(projectId) {
        await admin.query(`UPDATE "${schema}".sprint_items SET status = 'pending', claimed_at = NULL, claimed_by_session_id = NULL, claimant = NULL WHERE project_id = $1`, [
          projectId,
        ]);
        await admin.query(`VACUUM ANALYZE "${schema}".sprint_items`);
      },
      async inProgress(projectId) {
        const { rows } = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".sprint_items WHERE project_id = $1 AND status = 'in_progress'`, [projectId]);
        return rows[0].n;
      },
    };
  } else {
    const Database = require(path.join(root, 'node_modules', 'better-sqlite3'));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-bench-claims-'));
    closers.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'claims.db');
    baton = await startBaton(root, { ...production, SERVICE_DB: file });
    closers.push(() => baton.close());
    console.log(`sqlite: ${file} (removed at the end)`);
    const admin = new Database(file);
    admin.pragma('busy_timeout = 5000');
    closers.push(() => admin.close());
    ops = {
      ceiling: (projectId, sessions) => ({ mode: 'sqlite', root, file, projectId, sessions }),
      async reset(projectId) {
        admin.prepare("UPDATE sprint_items SET status = 'pending', claimed_at = NULL, claimed_by_session_id = NULL, claimant = NULL WHERE project_id = ?").run(projectId);
        admin.pragma('wal_checkpoint(TRUNCATE)');
      },
      async inProgress(projectId) {
        return admin.prepare("SELECT count(*) AS n FROM sprint_items WHERE project_id = ? AND status = 'in_progress'").get(projectId).n;
      },
    };
  }

  const project = await request('POST', `${baton.url}/projects`, { token, body: { name: 'claims bench' }, expect: 201 });
  const priorities = ['urgent', 'high', 'normal', 'low'];
  const seedStarted = Date.now();
  for (let from = 0; from < n; from += 1000) {
    const items = [];
    for (let i = from; i < Math.min(n, from + 1000); i++) items.push({ title: `bench item ${i}`, version: 'v1', force: true, priority: priorities[i % 4] });
    await request('POST', `${baton.url}/projects/${project.id}/sprint-batch`, { token, body: { op: 'create', items } });
  }
  const sessions = [];
  for (let i = 0; i < maxK; i++) {
    sessions.push(
      (await request('POST', `${baton.url}/sessions/register`, { token, body: { project_id: project.id, name: `bench-worker-${i}`, kind: 'worker' }, expect: 201 })).id,
    );
  }
  console.log(`${storage}: ${n} items seeded through sprint-batch in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s, ${maxK} worker sessions`);
  return { baton, token, projectId: project.id, sessions, ops };
}

async function run({ root }) {
  const n = Number(setting('BENCH_CLAIM_ITEMS', '10000'));
  const ks = setting('BENCH_CLAIM_WORKERS', '1,4,16,64').split(',').map(Number);
  const storages = setting('BENCH_CLAIM_STORAGE', 'postgres,sqlite').split(',');
  if (!Number.isInteger(n) || n < 1 || ks.some((k) => !Number.isInteger(k) || k < 1)) throw new Error('BENCH_CLAIM_ITEMS and BENCH_CLAIM_WORKERS must be positive integers');
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  console.log(`claims: ${n} items, workers ${ks.join(', ')}, storages ${storages.join(', ')}; node ${process.version} on ${os.cpus().length} CPU(s), load average ${load()}`);

  const results = [];
  const closers = [];
  try {
    for (const storage of storages) {
      const setup = await prepare(root, storage, n, Math.max(...ks), closers);
      for (const k of ks) {
        const sessions = setup.sessions.slice(0, k);
        await setup.ops.reset(setup.projectId);
        const baton = figures(await inWorker({ mode: 'http', url: setup.baton.url, token: setup.token, projectId: setup.projectId, sessions }), n);
        const batonInProgress = await setup.ops.inProgress(setup.projectId);
        await setup.ops.reset(setup.projectId);
        const ceiling = figures(await inWorker(setup.ops.ceiling(setup.projectId, sessions)), n);
        const ceilingInProgress = await setup.ops.inProgress(setup.projectId);
        const ratio = ceiling.claims_per_s > 0 ? Math.round((baton.claims_per_s / ceiling.claims_per_s) * 1000) / 1000 : 0;
        const row = {
          storage,
          workers: k,
          items: n,
          baton: { ...baton, in_progress_after: batonInProgress },
          ceiling: { ...ceiling, in_progress_after: ceilingInProgress },
          ratio,
        };
        results.push(row);
        const bad = baton.errors ? `  errors ${baton.errors} (${baton.first_error})` : '';
        console.log(
          `${storage.padEnd(8)} K=${String(k).padStart(2)}  baton ${String(baton.claims_per_s).padStart(6)} claims/s  p50 ${baton.p50_ms} ms  p99 ${baton.p99_ms} ms  ` +
            `dup ${baton.duplicates}  lost ${baton.losses}  in_progress ${batonInProgress}/${n}  |  ceiling ${String(ceiling.claims_per_s).padStart(6)} claims/s  ` +
            `p50 ${ceiling.p50_ms} ms  p99 ${ceiling.p99_ms} ms  dup ${ceiling.duplicates}  lost ${ceiling.losses}  |  ratio ${ratio.toFixed(3)}${bad}`,
        );
      }
      while (closers.length) await closers.pop()();
    }
  } finally {
    await closeAll(closers);
  }

  const clean = results.every((r) => r.baton.duplicates === 0 && r.baton.losses === 0 && r.baton.errors === 0 && r.baton.in_progress_after === n);
  const judged = [];
  for (const goal of [TARGET, TARGET_ONE_WORKER]) {
    const target = results.find((r) => r.storage === goal.storage && r.workers === goal.workers);
    if (!target) continue;
    const met = target.ratio >= goal.ratio_min && target.baton.duplicates <= goal.duplicates_max;
    // Judged on the ratio; a double claim or a lost item makes the run not comparable (and is printed above).
    judged.push(
      figureRow({
        figure: `claims/s of the replayed claim SQL (${goal.storage}, ${goal.workers} worker${goal.workers === 1 ? '' : 's'})`,
        value: target.ratio,
        ceiling: goal.ratio_min,
        goal: 'above',
        comparable: clean,
      }),
    );
    console.log(
      `target: ${goal.storage} at ${goal.workers} worker${goal.workers === 1 ? '' : 's'}, ratio >= ${goal.ratio_min} with 0 duplicates: ratio ${target.ratio.toFixed(3)}, ` +
        `duplicates ${target.baton.duplicates}: ${met ? 'met' : 'MISSED'}`,
    );
    if (process.env.BENCH_STRICT === '1' && !met) process.exitCode = 3;
  }
  console.log(`every Baton run claimed each item exactly once, lost none, left every item in progress: ${clean ? 'yes' : 'NO'}`);
  console.log(`load average at the end: ${load()} (other work on the machine slows Baton and the ceiling alike, not always equally)`);
  if (!clean && process.env.BENCH_STRICT === '1') process.exitCode = 3;
  console.log(
    JSON.stringify({
      bench: 'claims',
      node: process.version,
      cpus: os.cpus().length,
      loadavg: os.loadavg(),
      items: n,
      workers: ks,
      target: TARGET,
      target_one_worker: TARGET_ONE_WORKER,
      results,
      all_clean: clean,
      figures: judged,
    }),
  );
}

module.exports = { run };
