'use strict';
/**
 * waiters: what thousands of agents waiting in receive_messages cost one Baton instance, and how
 * fast they wake.
 *
 *   npm run build && npm run bench -- waiters [sqlite] [postgres]
 *
 * Baton runs in a child process (bench/lib/waiter-server.js, with the Node flags of `npm start`),
 * so its CPU time and resident memory are its own; this process holds the long-polls (POST .../messages/receive, one named agent
 * each, a wait far longer than the run) over keep-alive connections (one
 * reset before an answer is tried again and counted). For each count of waiters
 * (BENCH_WAITERS, 1,000 / 5,000 / 10,000), the same server:
 *   idle CPU   the server's CPU time (utime + stime from /proc) over BENCH_IDLE_S seconds while
 *              every waiter waits and nothing is sent, in % of one core;
 *   RSS        its VmRSS then, and per waiting request (RSS minus RSS before any waiter, divided
 *              by the waiters);
 *   wake       BENCH_SAMPLES single sends, each to a random waiter, one after the other: from the
 *              send's answer (the message is committed) to that waiter's answer, p50 and p99;
 *   broadcast  one message to the whole project (one per tenant's project, sent together): from
 *              the start of the send(s) to the last waiter's answer, storing the message included.
 *              Every waiter must answer with exactly that message. Also the server's CPU time
 *              over it, which other work on a shared machine does not lengthen.
 * Set-ups: `sqlite` (self-hosted, one project, no Redis) and `postgres` (hosted on a fresh
 * Postgres database with Redis, the waiters spread over BENCH_TENANTS tenants, every other one on
 * the paid plan: free tenants get no push).
 *
 * The ceilings are the goals of a hosted operator (idle CPU < 10 % of a core, RSS < 300 MB, wake
 * p99 < 10 ms, a broadcast within 1 s); ratio = figure / ceiling, met below 1.
 *
 * Settings: BENCH_WAITERS (comma list, default 1000,5000,10000), BENCH_TENANTS (default 1000),
 * BENCH_IDLE_S (default 10), BENCH_SAMPLES (default 100), BENCH_REDIS_URL, BENCH_PG_URL,
 * BENCH_SERVER_FLAGS (Node flags added to the server's, e.g. --cpu-prof),
 * BENCH_STRICT=1 (exit 3 when a goal is missed or a figure is not comparable).
 */
const { fork } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { startCommand } = require('./lib/cold-start');
const { createDatabase } = require('./lib/postgres');
const { figureRow, printFigures, ratio } = require('./lib/figures');
const { setting } = require('./lib/settings');

const CEILINGS = { idle_cpu_pct: 10, rss_mb: 300, wake_p99_ms: 10, broadcast_ms: 1000 };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const round = (n, d = 1) => Math.round(n * 10 ** d) / 10 ** d;
function pct(values, q) {
  const s = [...values].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN;
}

function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
}
function rssMB(pid) {
  const kb = Number(fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m)?.[1]);
  return round((kb * 1024) / 1e6);
}

/** Starts the server child; resolves with what it made. */
function startServer(root, env, tenants) {
  // With the Node flags of `npm start`, so its memory is what a user's server takes.
  // BENCH_SERVER_FLAGS adds Node flags of its own (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`) to look inside it.
  const extra = (process.env.BENCH_SERVER_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = fork(path.join(__dirname, 'lib', 'waiter-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [...startCommand(root)[0], ...extra] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => (m.error ? reject(new Error(m.error)) : resolve({ child, ...m })));
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before it was ready`)));
    child.send({ root, env, tenants });
  });
}

function askWaiting(child) {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m.waiting));
    child.send('waiting');
  });
}

/** Resolves once `count` requests wait; fails only when the number stops moving for `stallMs` (a loaded machine is slow, not stuck). */
async function waitUntilWaiting(child, count, failures, stallMs = 60000) {
  let last = -1;
  let since = Date.now();
  for (;;) {
    const n = await askWaiting(child);
    if (n >= count) return;
    if (n !== last) [last, since] = [n, Date.now()];
    if (Date.now() - since > stallMs || (failures.length > 0 && n + failures.length >= count)) {
      throw new Error(`only ${n} of ${count} receivers are waiting (${failures.length} long-polls failed or were refused${failures.length ? `, e.g. ${failures[0]}` : ''})`);
    }
    await sleep(50);
  }
}

/** A POST, tried again when the connection is reset before an answer (a client reconnects; nothing was answered, so nothing is lost). */
async function post(agent, url, token, body, tries = 5) {
  for (let i = 1; ; i++) {
    try {
      return await postOnce(agent, url, token, body);
    } catch (error) {
      if (i >= tries || !['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(error.code)) throw error;
      resets++;
      await sleep(50 * i);
    }
  }
}
let resets = 0;

function postOnce(agent, url, token, body) {
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const at = performance.now();
          const text = Buffer.concat(chunks).toString();
          resolve({ at, status: res.statusCode, json: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

async function measureSetup(root, name, opts) {
  const common = {
    NODE_ENV: 'production',
    SESSION_SECRET: randomBytes(24).toString('hex'),
    APP_URL: 'http://127.0.0.1',
    SERVICE_MAX_WAIT_SECONDS: '600',
    SERVICE_SWEEP_INTERVAL_SECONDS: '0',
  };
  let db;
  let env = common;
  let tenants = 1;
  if (name === 'postgres') {
    db = await createDatabase();
    tenants = opts.tenants;
    env = { ...common, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, SERVICE_CACHE_URL: opts.redisUrl, SERVICE_PUBSUB_PREFIX: `baton-bench-${randomBytes(4).toString('hex')}` };
  }
  const started = Date.now();
  let server;
  try {
    server = await startServer(root, env, tenants);
  } catch (error) {
    await db?.drop();
    throw error;
  }
  console.log(`${name}: server pid ${server.pid} ready with ${server.tenants.length} tenant(s) in ${round((Date.now() - started) / 1000)} s`);
  // Keep-alive: thousands of re-armed long-polls on fresh connections would run out of ephemeral ports (TIME_WAIT).
  // Every waiter keeps its connection between waits, as an agent does: with node's default of 256 free
  // sockets, a broadcast would close thousands of connections while it is timed.
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  const results = [];
  try {
    const base = server.url;
    let busy = 0;
    /** The `code` of the 503 answers, counted: which limit the starts and sends ran into. */
    const busyCodes = {};
    // A server too busy to start a wait or store a message (503: nothing was done) is asked again
    // shortly, as an agent would; counted. A send given up on would leave its receivers waiting.
    const postUntilServed = async (url, token, body) => {
      for (let tries = 1; ; tries++) {
        const r = await post(agent, url, token, body);
        if (r.status !== 503 || tries >= 20) return r;
        busy++;
        const code = r.json?.code ?? 'none';
        busyCodes[code] = (busyCodes[code] ?? 0) + 1;
        await sleep(100 * tries);
      }
    };
    const send = (t, body) => postUntilServed(`${base}/projects/${t.project}/messages`, t.token, body);
    const waits = [];
    const acked = [];
    const failures = [];
    const tenantOf = (i) => server.tenants[i % server.tenants.length];
    const arm = (i) => {
      const t = tenantOf(i);
      const body = { agent: `w${i}`, wait_seconds: 600, ...(acked[i] ? { ack_through: acked[i] } : {}) };
      waits[i] = postUntilServed(`${base}/projects/${t.project}/messages/receive`, t.token, body);
      // Awaited later; a failure must not end the process before that, but it is told.
      waits[i].then(
        (r) => r.status !== 200 && failures.push(`w${i}: ${r.status} ${JSON.stringify(r.json)?.slice(0, 200)}`),
        (error) => failures.push(`w${i}: ${error.code ?? error.message}`),
      );
    };
    await sleep(2000);
    const rssBase = rssMB(server.pid);
    const idle0 = cpuTicks(server.pid);
    await sleep(opts.idleS * 1000);
    const baseCpu = round(cpuTicks(server.pid) - idle0) / opts.idleS;
    console.log(`${name}: no waiter: idle CPU ${round(baseCpu)} %, RSS ${rssBase} MB`);
    let armed = 0;
    for (const count of opts.counts) {
      // Connect in slices, so the listen backlog never overflows into SYN retries.
      for (; armed < count; armed++) {
        arm(armed);
        if (armed % 250 === 249) await sleep(20);
      }
      await waitUntilWaiting(server.child, count, failures);
      await sleep(2000);
      const rss = rssMB(server.pid);
      const t0 = cpuTicks(server.pid);
      await sleep(opts.idleS * 1000);
      const idleCpu = round((cpuTicks(server.pid) - t0) / opts.idleS);

      const wakes = [];
      let errors = 0;
      for (let s = 0; s < opts.samples; s++) {
        const i = Math.floor(Math.random() * count);
        const sent = await send(tenantOf(i), { to_agent: `w${i}`, body: `m${s}` });
        if (sent.status !== 201) throw new Error(`send answered ${sent.status}: ${JSON.stringify(sent.json)}`);
        const got = await waits[i];
        if (got.status !== 200 || got.json.messages.length !== 1 || got.json.messages[0].seq !== sent.json.seq) errors++;
        wakes.push(Math.max(0, got.at - sent.at));
        acked[i] = sent.json.seq;
        arm(i);
        await waitUntilWaiting(server.child, count, failures);
      }
      // One broadcast per tenant's project (one project when self-hosted), sent together.
      // Timed from the moment the sends start (with many tenants, most waiters wake before the last send is answered).
      const castAt = performance.now();
      const castCpu0 = cpuTicks(server.pid);
      const casts = await Promise.all(server.tenants.map((t) => send(t, { broadcast: true, body: `all-${count}` })));
      const refused = casts.find((c) => c.status !== 201);
      if (refused) throw new Error(`a broadcast answered ${refused.status}: ${JSON.stringify(refused.json)}`);
      const answers = await Promise.all(waits.slice(0, count));
      const broadcastMs = round(Math.max(...answers.map((a) => a.at)) - castAt);
      // The server's CPU time for it (ticks of 10 ms): what other work on the machine does not lengthen.
      const broadcastCpuMs = (cpuTicks(server.pid) - castCpu0) * 10;
      answers.forEach((a, i) => {
        const expected = casts[i % casts.length].json.seq;
        if (a.status !== 200 || a.json.messages.length !== 1 || a.json.messages[0].seq !== expected) errors++;
        acked[i] = expected;
      });
      for (let i = 0; i < count; i++) arm(i);
      const r = {
        waiters: count,
        idle_cpu_pct: idleCpu,
        rss_mb: rss,
        kb_per_waiter: round(((rss - rssBase) * 1000) / count),
        wake_p50_ms: round(pct(wakes, 0.5), 2),
        wake_p99_ms: round(pct(wakes, 0.99), 2),
        broadcast_ms: broadcastMs,
        broadcast_cpu_ms: broadcastCpuMs,
        wrong_answers: errors,
        connection_resets: resets,
        busy_answers: busy,
        busy_codes: { ...busyCodes },
      };
      results.push(r);
      console.log(
        `${name} ${String(count).padStart(6)} waiting: idle CPU ${r.idle_cpu_pct} %  RSS ${r.rss_mb} MB (${r.kb_per_waiter} kB per waiter)  ` +
          `wake p50 ${r.wake_p50_ms} ms p99 ${r.wake_p99_ms} ms  broadcast ${r.broadcast_ms} ms (server CPU ${r.broadcast_cpu_ms} ms)${errors ? `  ${errors} WRONG ANSWERS` : ''}${busy ? `  (${busy} busy answers asked again: ${JSON.stringify(busyCodes)})` : ''}`,
      );
    }
    // Let the last long-polls go before the server stops.
    const byes = await Promise.all(server.tenants.map((t) => send(t, { broadcast: true, body: 'bye' })));
    const unsent = byes.filter((b) => b.status !== 201).length;
    if (unsent) throw new Error(`${unsent} of the last broadcasts were not stored: their receivers would wait on`);
    await Promise.allSettled(waits);
    return { setup: name, tenants: server.tenants.length, no_waiter: { idle_cpu_pct: round(baseCpu), rss_mb: rssBase }, rows: results };
  } finally {
    agent.destroy();
    server.child.disconnect();
    await new Promise((r) => (server.child.exitCode === null ? server.child.once('exit', r) : r()));
    await db?.drop();
  }
}

/**
 * The framework's ceiling for the same counts: a bare NestJS application holding as many POSTs
 * (bench/lib/held-server.js, started with the same Node flags), its RSS per held request, and the
 * time and server CPU from answering them all at once to the last answer received.
 */
async function measureFramework(root, opts) {
  const child = fork(path.join(__dirname, 'lib', 'held-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: startCommand(root)[0] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the bare NestJS server exited (${code}) before it was ready`)));
    child.send({ root });
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });
  const rows = [];
  let waits = [];
  const failures = [];
  try {
    await sleep(2000);
    const rssBase = rssMB(ready.pid);
    const arm = (i) => {
      waits[i] = post(agent, `${ready.url}/projects/p/messages/receive`, undefined, { agent: `w${i}`, wait_seconds: 600 });
      waits[i].catch((error) => failures.push(`w${i}: ${error.code ?? error.message}`));
    };
    for (const count of opts.counts) {
      waits = [];
      for (let i = 0; i < count; i++) {
        arm(i);
        if (i % 250 === 249) await sleep(20);
      }
      await waitUntilWaiting(child, count, failures);
      await sleep(2000);
      const rss = rssMB(ready.pid);
      const at = performance.now();
      const cpu0 = cpuTicks(ready.pid);
      child.send('answer');
      const answers = await Promise.all(waits);
      const row = {
        waiters: count,
        rss_mb: rss,
        kb_per_waiter: round(((rss - rssBase) * 1000) / count),
        broadcast_ms: round(Math.max(...answers.map((a) => a.at)) - at),
        broadcast_cpu_ms: (cpuTicks(ready.pid) - cpu0) * 10,
        ok: answers.every((a) => a.status === 200 && a.json.messages.length === 1),
      };
      rows.push(row);
      console.log(
        `bare NestJS ${String(count).padStart(6)} held: RSS ${row.rss_mb} MB (${row.kb_per_waiter} kB per request)  all answered in ${row.broadcast_ms} ms (server CPU ${row.broadcast_cpu_ms} ms)`,
      );
    }
    return { rss_base_mb: rssBase, rows };
  } finally {
    agent.destroy();
    child.disconnect();
    await new Promise((r) => (child.exitCode === null ? child.once('exit', r) : r()));
  }
}

async function run({ args }) {
  const root = path.resolve(__dirname, '..');
  const opts = {
    counts: (process.env.BENCH_WAITERS ?? '1000,5000,10000').split(',').map(Number),
    tenants: setting('BENCH_TENANTS', 1000, 1),
    idleS: setting('BENCH_IDLE_S', 10, 1),
    samples: setting('BENCH_SAMPLES', 100, 1),
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
  const setups = args.filter((a) => a === 'sqlite' || a === 'postgres');
  if (setups.length === 0) setups.push('sqlite', 'postgres');
  console.log(`waiters: ${opts.counts.join(' / ')} long-polls on ${setups.join(' and ')}; idle window ${opts.idleS} s; ${opts.samples} single sends`);
  // What the framework alone costs for as many waiting requests: the floor of the RSS per waiter and of a broadcast.
  const framework = process.env.BENCH_FRAMEWORK === '0' ? undefined : await measureFramework(root, opts);
  const measured = [];
  for (const name of setups) measured.push(await measureSetup(root, name, opts));
  const frameworkAt = (count) => framework?.rows.find((f) => f.waiters === count);

  const figures = [];
  for (const m of measured) {
    for (const r of m.rows) {
      const at = `${m.setup}, ${r.waiters} waiting`;
      const comparable = r.wrong_answers === 0;
      figures.push(figureRow({ figure: `idle CPU (${at})`, value: r.idle_cpu_pct, unit: '%', ceiling: CEILINGS.idle_cpu_pct, comparable }));
      figures.push(figureRow({ figure: `RSS (${at})`, value: r.rss_mb, unit: 'MB', ceiling: CEILINGS.rss_mb, comparable }));
      figures.push(figureRow({ figure: `wake p99 (${at})`, value: r.wake_p99_ms, unit: 'ms', ceiling: CEILINGS.wake_p99_ms, comparable }));
      const bare = frameworkAt(r.waiters);
      const beside = bare ? `bare NestJS: ${bare.kb_per_waiter} kB per held request, all answered in ${bare.broadcast_ms} ms (server CPU ${bare.broadcast_cpu_ms} ms)` : undefined;
      figures.push(figureRow({ figure: `broadcast, last woken (${at})`, value: r.broadcast_ms, unit: 'ms', ceiling: CEILINGS.broadcast_ms, comparable, note: beside }));
      if (bare) {
        console.log(
          `${at}: per waiter ${r.kb_per_waiter} kB vs ${bare.kb_per_waiter} kB (x${ratio(r.kb_per_waiter, bare.kb_per_waiter)}); ` +
            `broadcast server CPU ${r.broadcast_cpu_ms} ms vs ${bare.broadcast_cpu_ms} ms (x${ratio(r.broadcast_cpu_ms, bare.broadcast_cpu_ms)}) of a bare NestJS app answering as many held requests`,
        );
      }
    }
  }
  printFigures(figures);
  const met = Object.fromEntries(figures.map((f) => [f.figure, f.met]));
  console.log(JSON.stringify({ bench: 'waiters', node: process.version, settings: opts, ceilings: CEILINGS, framework, setups: measured, figures, met }));
  if (process.env.BENCH_STRICT === '1' && figures.some((f) => !f.met || !f.comparable)) process.exitCode = 3;
}

module.exports = { run };
