'use strict';
/**
 * scale-out: read throughput of three Baton instances over one Postgres beside one instance, in
 * the same run on the same machine, and what limits it.
 *
 * One hosted workspace with one project on a fresh Postgres database; three processes started as
 * production starts them (`npm start`'s command, NODE_ENV=production, one database, default
 * settings). `GET /projects/{id}` with the workspace's API token is driven by autocannon:
 *   one    all connections on one instance;
 *   three  the same connections split evenly over the three instances (a balancer that costs
 *          nothing: a real one runs elsewhere, and one in this process would take the cores
 *          measured).
 * The two alternate in BENCH_ROUNDS rounds (one, three, then three, one, ...) so that other work
 * on the machine weighs on both alike. Printed for each: req/s, p50/p99, the CPU time per request
 * of the Baton processes and of the database's server processes (from /proc), and how busy the
 * machine's cores were; then three/one, os.cpus().length, and what limits the figure.
 *
 * Settings (environment): BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3),
 * BENCH_CONNECTIONS (default 48), BENCH_ROUNDS (default 2), BENCH_WORKERS (load-generator threads
 * per target, default 0: this process's main thread, which does nothing else here),
 * BENCH_PG_URL (admin connection, default postgres://postgres@127.0.0.1:5432/test).
 */
const { randomBytes } = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { Client } = require('pg');
const { measure } = require('./lib/load');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startBaton, startProcess, request } = require('./lib/servers');
const { pad, ratio } = require('./lib/figures');
const { loadSettings } = require('./lib/settings');
const { cpuSeconds } = require('./lib/cpu');
const { closeAll } = require('./lib/closers');

const INSTANCES = 3;
/** Busy and total CPU time of the whole machine so far, in ms. */
function machineTimes() {
  let busy = 0;
  let total = 0;
  for (const { times } of os.cpus()) {
    const all = times.user + times.nice + times.sys + times.idle + times.irq;
    total += all;
    busy += all - times.idle;
  }
  return { busy, total };
}

async function run({ root }) {
  const opts = loadSettings({ duration: 10, warmup: 3, connections: 48, workers: 0, rounds: 2 });
  const cores = os.cpus().length;
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));

  console.log(
    `scale-out: GET /projects/{id} with a bearer token, Baton hosted on one Postgres, ${opts.connections} connections, ` +
      `${opts.duration} s measured after ${opts.warmup} s warm-up, ${opts.rounds} alternating rounds`,
  );
  console.log(`machine: ${cores} cores (os.cpus().length), ${os.cpus()[0]?.model ?? 'unknown model'}, ${Math.round(os.totalmem() / 1e9)} GB`);

  const closers = [];
  try {
    const db = await createDatabase('baton_bench_scale');
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    const env = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' };

    // The workspace and its token, made through the control plane before the instances start (it also migrates).
    const setup = await startBaton(root, env);
    let token;
    try {
      ({ token } = await setup.app.get(TenantProvisioning).provision('bench'));
    } finally {
      await setup.close();
    }
    const instances = [];
    for (let i = 0; i < INSTANCES; i++) {
      const instance = await startProcess(root, env);
      closers.push(() => instance.close());
      instances.push(instance);
    }
    const project = (await request('POST', `${instances[0].url}/projects`, { token, body: { name: 'bench' }, expect: 201 })).json;
    const readPath = `/projects/${project.id}`;
    for (const instance of instances) await request('GET', instance.url + readPath, { token });
    await request('GET', instances[1].url + readPath, { expect: 401 }); // the route is really authenticated

    const pg = new Client({ connectionString: ADMIN_URL });
    await pg.connect();
    closers.push(() => pg.end());
    const postgresPids = async () => (await pg.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db.name])).rows.map((r) => r.pid);

    const headers = { authorization: `Bearer ${token}` };
    const load = { headers, duration: opts.duration / opts.rounds, warmup: 0, workers: opts.workers };
    /** Connections split as evenly as they go over `targets`. */
    const drive = async (targets, duration) => {
      const parts = await Promise.all(
        targets.map((t, i) =>
          measure({ ...load, url: t.url + readPath, duration, connections: Math.floor(opts.connections / targets.length) + (i < opts.connections % targets.length ? 1 : 0) }),
        ),
      );
      return parts;
    };
    const setups = { one: instances.slice(0, 1), three: instances };
    const rounds = { one: [], three: [] };
    for (let round = 0; round < opts.rounds; round++) {
      for (const key of round % 2 ? ['three', 'one'] : ['one', 'three']) {
        if (round === 0 && opts.warmup > 0) await drive(setups[key], opts.warmup);
        const pids = await postgresPids();
        const baton0 = instances.reduce((s, i) => s + cpuSeconds(i.pid), 0);
        const pg0 = pids.reduce((s, pid) => s + cpuSeconds(pid), 0);
        const m0 = machineTimes();
        const self0 = process.cpuUsage();
        const parts = await drive(setups[key], load.duration);
        const self = process.cpuUsage(self0);
        const m1 = machineTimes();
        const baton = instances.reduce((s, i) => s + cpuSeconds(i.pid), 0) - baton0;
        const postgres = pids.reduce((s, pid) => s + cpuSeconds(pid), 0) - pg0;
        rounds[key].push({ parts, baton, postgres, generator: (self.user + self.system) / 1e6, busy: m1.busy - m0.busy, total: m1.total - m0.total });
      }
    }

    const results = {};
    for (const key of ['one', 'three']) {
      const all = rounds[key];
      const requests = all.reduce((s, r) => s + r.parts.reduce((t, p) => t + p.requests, 0), 0);
      const seconds = load.duration * all.length;
      const bad = all.flatMap((r) => r.parts).filter((p) => !p.ok);
      results[key] = {
        instances: setups[key].length,
        rps: Math.round(requests / seconds),
        p50_ms: Math.max(...all.flatMap((r) => r.parts.map((p) => p.p50_ms))),
        p99_ms: Math.max(...all.flatMap((r) => r.parts.map((p) => p.p99_ms))),
        baton_cpu_us_per_req: Math.round((all.reduce((s, r) => s + r.baton, 0) * 1e6) / Math.max(requests, 1)),
        postgres_cpu_us_per_req: Math.round((all.reduce((s, r) => s + r.postgres, 0) * 1e6) / Math.max(requests, 1)),
        baton_cores: Math.round((all.reduce((s, r) => s + r.baton, 0) / seconds) * 100) / 100,
        postgres_cores: Math.round((all.reduce((s, r) => s + r.postgres, 0) / seconds) * 100) / 100,
        generator_cores: Math.round((all.reduce((s, r) => s + r.generator, 0) / seconds) * 100) / 100,
        machine_busy:
          Math.round(
            (all.reduce((s, r) => s + r.busy, 0) /
              Math.max(
                all.reduce((s, r) => s + r.total, 0),
                1,
              )) *
              1000,
          ) / 10,
        errors: bad.reduce((s, p) => s + p.errors + p.timeouts + p.non2xx, 0),
      };
      const r = results[key];
      console.log(
        `${pad(key, 6)} ${pad(`(${r.instances} instance${r.instances > 1 ? 's' : ''})`, 13)} ${String(r.rps).padStart(7)} req/s  p50 ${r.p50_ms} ms  p99 ${r.p99_ms} ms  ` +
          `Baton ${r.baton_cpu_us_per_req} µs/req on ${r.baton_cores} cores, Postgres ${r.postgres_cpu_us_per_req} µs/req on ${r.postgres_cores} cores, load generator ${r.generator_cores} cores, machine ${r.machine_busy}% busy` +
          (r.errors ? `  (${r.errors} errors, timeouts or non-2xx: not comparable)` : ''),
      );
    }
    const scale = ratio(results.three.rps, results.one.rps);
    console.log(`three/one: ${scale.toFixed(3)} on ${cores} cores`);
    const limit = limitOf(results, cores);
    console.log(`limit: ${limit}`);
    console.log(JSON.stringify({ benchmark: 'scale-out', cores, ...opts, results, three_over_one: scale, limit }));
  } finally {
    await closeAll(closers);
  }
}

/** What the figures say bounds the three-instance throughput. */
function limitOf(results, cores) {
  const three = results.three;
  const perRead = three.baton_cpu_us_per_req + three.postgres_cpu_us_per_req;
  // Requests per second the cores allow if they did nothing but Baton's and Postgres's share of each read.
  const coreBound = Math.round((cores * 1e6) / Math.max(perRead, 1));
  // Cores busy with work that is not this benchmark's (other processes on the machine).
  const other = Math.max(0, Math.round(((three.machine_busy / 100) * cores - three.baton_cores - three.postgres_cores - three.generator_cores) * 100) / 100);
  if (three.machine_busy >= 85) {
    return (
      `the machine's ${cores} cores: ${three.machine_busy}% busy during the three-instance run (Baton ${three.baton_cores} cores, Postgres ${three.postgres_cores}, ` +
      `the load generator ${three.generator_cores}, other processes of the machine ${other}${other > three.baton_cores ? ': most of the cores went to work outside this benchmark, so its figures are low in absolute terms' : ''}). ` +
      `Three processes on the same cores add scheduling and three pools' worth of work, not CPU. A read costs ${three.baton_cpu_us_per_req} µs of Baton and ${three.postgres_cpu_us_per_req} µs of Postgres, ` +
      `so these cores allow at most about ${coreBound} reads/s however many instances share them; more instances only add throughput on cores of their own ` +
      `(other machines), where the one Postgres's ${three.postgres_cpu_us_per_req} µs per read becomes the shared bound.`
    );
  }
  return (
    `not the cores (${three.machine_busy}% busy): the connections (${results.three.instances} instances share them) or the single load-generator thread ` +
    `keep the instances from being saturated; raise BENCH_CONNECTIONS or BENCH_WORKERS to find the ceiling (the cores would allow about ${coreBound} reads/s).`
  );
}

module.exports = { run };
