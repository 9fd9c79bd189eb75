'use strict';
/**
 * push: how fast a message sent through one Baton instance reaches a receiver waiting on
 * another, with Redis push and with database polling, and how much the database is read by
 * receivers that only wait. Every latency is printed as a ratio against a raw ioredis
 * PUBLISH -> message round trip measured in the same run (the floor push can reach).
 *
 *   npm run build && npm run bench -- push      (or: node bench/push.js)
 *
 * Set-up, all in this process on 127.0.0.1: a fresh Postgres database, two Baton instances A and
 * B on it (self-hosted on Postgres, so both serve the same tenant), first with SERVICE_CACHE_URL
 * (push), then without (polling every SERVICE_POLL_INTERVAL_MS, 1,000 ms by default). With 1, 10
 * and 100 receivers long-polling B (POST .../messages/receive, wait_seconds 30), messages are sent
 * through A to one waiting receiver at a time. Two figures per sample: send->receive, from the
 * send request to that receiver's answer (it includes storing the message), and send->wake, from
 * the send's answer (the message is committed) to the receiver's answer: the wake-up itself.
 * Idle database reads: the receivers wait with nothing sent while the transactions B opens are
 * counted for BENCH_IDLE_S seconds.
 *
 * Settings (environment): BENCH_REDIS_URL (default redis://127.0.0.1:6379), BENCH_PG_URL,
 * BENCH_SAMPLES (sends per receiver count with push, default 200), BENCH_POLL_SAMPLES (with
 * polling, default 20), BENCH_RAW_SAMPLES (default 2000), BENCH_IDLE_S (default 10),
 * BENCH_STRICT=1 (exit 3 when a target is missed).
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startBaton, request } = require('./lib/servers');
const { setting } = require('./lib/settings');
const { figureRow } = require('./lib/figures');

const TARGETS = { push_p99_ms_at_100: 10, push_idle_reads_per_waiter_s: 0.2 };
const COUNTS = [1, 10, 100];

const round = (n, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
function pct(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
}
const summary = (values) => ({ n: values.length, p50_ms: round(pct(values, 0.5)), p99_ms: round(pct(values, 0.99)) });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Raw ioredis: PUBLISH on one connection, time until the message event on another. */
async function rawRoundTrip(root, url, samples) {
  const Redis = require(path.join(root, 'node_modules', 'ioredis'));
  const pub = new Redis(url);
  const sub = new Redis(url);
  const channel = `baton-bench-raw-${randomBytes(4).toString('hex')}`;
  await sub.subscribe(channel);
  const times = [];
  let pending;
  sub.on('message', () => pending && pending());
  for (let i = 0; i < samples + 100; i++) {
    const started = performance.now();
    await new Promise((resolve) => {
      pending = resolve;
      pub.publish(channel, String(i));
    });
    if (i >= 100) times.push(performance.now() - started); // the first 100 warm up
  }
  pub.disconnect();
  sub.disconnect();
  return summary(times);
}

/** Counts the units of tenant work (transactions and reads) an instance runs against the database. */
function countTransactions(root, app) {
  const { TenantDb } = require(path.join(root, 'dist', 'libs', 'tenancy'));
  const db = app.get(TenantDb);
  const counter = { n: 0 };
  for (const method of ['transaction', 'read']) {
    const original = db[method].bind(db);
    db[method] = (work) => {
      counter.n += 1;
      return original(work);
    };
  }
  return counter;
}

async function measureMode(root, db, mode, opts, production) {
  const env = {
    ...production,
    SERVICE_DB_URL: db.url,
    APP_URL: 'http://127.0.0.1',
    SERVICE_SWEEP_INTERVAL_SECONDS: '0',
    SERVICE_MAX_WAIT_SECONDS: '60',
    ...(mode === 'push' ? { SERVICE_CACHE_URL: opts.redisUrl, SERVICE_PUBSUB_PREFIX: `baton-bench-${randomBytes(4).toString('hex')}` } : {}),
  };
  const a = await startBaton(root, env);
  const b = await startBaton(root, env);
  try {
    if (mode === 'push') {
      for (const url of [a.url, b.url]) {
        for (let i = 0; ; i++) {
          const d = (await request('GET', `${url}/tunnel/diagnostics/00000000-0000-0000-0000-000000000000`)).json;
          if (d.pubsub.availability === 'reachable') break;
          if (i > 100) throw new Error(`push not reachable: ${d.pubsub.availability}`);
          await sleep(100);
        }
      }
    }
    const project = (await request('POST', `${a.url}/projects`, { body: { name: `bench-${mode}` }, expect: 201 })).json.id;
    const counter = countTransactions(root, b.app);
    const { PushService } = require(path.join(root, 'dist', 'src', 'modules', 'push', 'push.service'));
    const registry = b.app.get(PushService).registry;
    const result = { latency: {}, wake: {}, idle: {} };
    for (const count of COUNTS) {
      const agents = Array.from({ length: count }, (_, i) => `w${count}-${i}`);
      for (const agent of agents) await request('POST', `${b.url}/projects/${project}/messages/receive`, { body: { agent } });
      // One long-poll per receiver; `arm` starts it again after each answer.
      const waits = new Map();
      const arm = (agent, ack) =>
        waits.set(
          agent,
          fetch(`${b.url}/projects/${project}/messages/receive`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ agent, wait_seconds: 60, ...(ack ? { ack_through: ack } : {}) }),
          }).then(async (res) => ({ at: performance.now(), body: await res.json() })),
        );
      agents.forEach((agent) => arm(agent));
      // A receiver is waiting once its long-poll has read and registered its waiter. On a loaded
      // machine that takes a while: give up only when the number stops moving for a minute.
      const waitingAll = async () => {
        let last = -1;
        let since = Date.now();
        while (registry.waiting < count) {
          if (registry.waiting !== last) [last, since] = [registry.waiting, Date.now()];
          if (Date.now() - since > 60_000) throw new Error(`only ${registry.waiting} of ${count} receivers are waiting, and no more for 60 s`);
          await sleep(1);
        }
      };
      await waitingAll();
      await sleep(200);

      // Idle: everyone waits, nothing is sent.
      const before = counter.n;
      await sleep(opts.idleS * 1000);
      const reads = counter.n - before;
      result.idle[count] = { reads_per_s: round(reads / opts.idleS, 2), per_waiter_s: round(reads / opts.idleS / count, 3) };

      const samples = mode === 'push' ? opts.samples : opts.pollSamples;
      const times = [];
      const wakes = [];
      for (let i = 0; i < samples; i++) {
        const agent = agents[i % count];
        const started = performance.now();
        const sent = await request('POST', `${a.url}/projects/${project}/messages`, { body: { to_agent: agent, body: `m${i}` }, expect: 201 });
        const answered = performance.now();
        const got = await waits.get(agent);
        if (got.body.messages?.[0]?.seq !== sent.json.seq) throw new Error(`receiver ${agent} got ${JSON.stringify(got.body).slice(0, 200)}`);
        times.push(got.at - started);
        wakes.push(Math.max(0, got.at - answered));
        arm(agent, sent.json.seq);
        // The next send starts once every receiver is waiting again, so no sample is a lucky first read.
        await waitingAll();
      }
      result.latency[count] = summary(times);
      result.wake[count] = summary(wakes);
      // Release the waiters before the next round.
      for (const agent of agents) await request('POST', `${a.url}/projects/${project}/messages`, { body: { to_agent: agent, body: 'bye' }, expect: 201 });
      await Promise.all([...waits.values()]);
    }
    return result;
  } finally {
    await a.close();
    await b.close();
  }
}

async function run({ root }) {
  const opts = {
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    samples: setting('BENCH_SAMPLES', 200, 10),
    pollSamples: setting('BENCH_POLL_SAMPLES', 20, 5),
    rawSamples: setting('BENCH_RAW_SAMPLES', 2000, 100),
    idleS: setting('BENCH_IDLE_S', 10, 1),
  };
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex') };
  console.log(`push: node ${process.version}; receivers ${COUNTS.join('/')}; ${opts.samples} sends with push, ${opts.pollSamples} with polling; idle window ${opts.idleS} s`);

  const raw = await rawRoundTrip(root, opts.redisUrl, opts.rawSamples);
  console.log(`raw ioredis PUBLISH -> message: p50 ${raw.p50_ms} ms, p99 ${raw.p99_ms} ms (${raw.n} samples)`);

  const db = await createDatabase();
  console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
  const results = {};
  try {
    results.push = await measureMode(root, db, 'push', opts, production);
    results.polling = await measureMode(root, db, 'polling', opts, production);
  } finally {
    await db.drop();
  }

  const rows = [];
  for (const mode of ['push', 'polling']) {
    for (const count of COUNTS) {
      const l = results[mode].latency[count];
      const w = results[mode].wake[count];
      const idle = results[mode].idle[count];
      const ratio = (v, base) => round(v / base, 1);
      rows.push({
        mode,
        receivers: count,
        send_receive: { ...l, ratio_p50: ratio(l.p50_ms, raw.p50_ms), ratio_p99: ratio(l.p99_ms, raw.p99_ms) },
        wake: { ...w, ratio_p50: ratio(w.p50_ms, raw.p50_ms), ratio_p99: ratio(w.p99_ms, raw.p99_ms) },
        idle_reads_per_s: idle.reads_per_s,
        idle_reads_per_waiter_s: idle.per_waiter_s,
      });
      console.log(
        `${mode.padEnd(7)} ${String(count).padStart(3)} receivers: send->receive p50 ${l.p50_ms} ms (x${ratio(l.p50_ms, raw.p50_ms)} raw) p99 ${l.p99_ms} ms (x${ratio(l.p99_ms, raw.p99_ms)}); ` +
          `wake after the send answered p50 ${w.p50_ms} ms (x${ratio(w.p50_ms, raw.p50_ms)}) p99 ${w.p99_ms} ms (x${ratio(w.p99_ms, raw.p99_ms)}); ` +
          `idle database reads ${idle.reads_per_s}/s (${idle.per_waiter_s} per waiter)`,
      );
    }
  }
  const p99At100 = results.push.wake[100].p99_ms;
  const idlePerWaiter = results.push.idle[100].per_waiter_s;
  const met = { push_p99_at_100: p99At100 < TARGETS.push_p99_ms_at_100, push_idle_reads: idlePerWaiter <= TARGETS.push_idle_reads_per_waiter_s };
  console.log(`push send->wake p99 at 100 receivers ${p99At100} ms (target < ${TARGETS.push_p99_ms_at_100} ms): ${met.push_p99_at_100 ? 'met' : 'MISSED'}`);
  console.log(
    `push idle reads ${idlePerWaiter} per waiter per second (only the safety poll, every SERVICE_PUSH_SAFETY_POLL_MS = 10 s: target <= ${TARGETS.push_idle_reads_per_waiter_s}): ${met.push_idle_reads ? 'met' : 'MISSED'}`,
  );
  const figures = [
    figureRow({ figure: 'push send->wake p99, 100 receivers', value: p99At100, unit: 'ms', ceiling: TARGETS.push_p99_ms_at_100 }),
    figureRow({ figure: 'push idle reads per waiter per second, 100 receivers', value: idlePerWaiter, ceiling: TARGETS.push_idle_reads_per_waiter_s }),
  ];
  console.log(JSON.stringify({ bench: 'push', node: process.version, raw, rows, targets: TARGETS, met, figures }));
  if (process.env.BENCH_STRICT === '1' && Object.values(met).some((ok) => !ok)) process.exitCode = 3;
}

module.exports = { run };

if (require.main === module) {
  run({ root: path.resolve(__dirname, '..') })
    .then(() => process.exit(process.exitCode ?? 0))
    .catch((error) => {
      process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    });
}
