'use strict';
/**
 * board-read: the board read (a project's sprint-items listing and its context block) with the
 * process-local board-read cache and without it, on the same server, in alternating rounds.
 *
 * In this process, on 127.0.0.1:
 *   ceiling   a bare NestJS-on-express app answering a constant JSON body of the listing's size;
 *   sqlite    Baton self-hosted on a fresh SQLite file without Redis (the set-up where the cache
 *             serves with no round trip: this process is the only writer);
 *   redis     the same with SERVICE_CACHE_URL (BENCH_REDIS_URL): the cache serves only while push
 *             is live, and each cached read first reads the tenant's board version in Redis.
 * Each is seeded with one project of 50 sprint items, a goal, 10 tasks, 5 pinned decisions and
 * 3 active sessions.
 * Measured: GET /projects/{id}/sprint-items and GET /projects/{id}/context-block, each with the
 * cache on (`BoardReadCache.enabled`) and off, in BENCH_ROUNDS alternating rounds (off, on, on,
 * off, ...), so that other work on the machine weighs on both alike. Nothing writes while a round
 * runs: every cached read is a hit, the best case for the cache.
 *
 * Printed: req/s, p50/p99 of each, its ratio to the ceiling, and cached/uncached for each route.
 * Settings (environment): BENCH_DURATION (s, default 5), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 20), BENCH_ROUNDS (default 2), BENCH_WORKERS (default 1),
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379), BENCH_SETUPS (default `sqlite,redis`).
 */
const path = require('node:path');
const { randomBytes } = require('node:crypto');
const { measure } = require('./lib/load');
const { startBaton, startCeiling, request } = require('./lib/servers');
const { median, pad, ratio } = require('./lib/figures');
const { loadSettings } = require('./lib/settings');

async function seed(url) {
  const project = (await request('POST', `${url}/projects`, { body: { name: `Board ${Date.now()}` }, expect: 201 })).json.id;
  const base = `${url}/projects/${project}`;
  await request('POST', `${base}/goal`, { body: { content: 'Ship the importer.\n\nKeep the CLI stable.' } });
  for (let i = 0; i < 50; i++)
    await request('POST', `${base}/sprint-items`, { body: { version: 'v1', title: `Board item number ${i} of the benchmark`, force: true }, expect: 201 });
  const sessions = [];
  for (let i = 0; i < 3; i++) sessions.push((await request('POST', `${url}/sessions/register`, { body: { project_id: project, name: `worker-${i}` }, expect: 201 })).json.id);
  for (let i = 0; i < 10; i++) await request('POST', `${url}/tasks`, { body: { project_id: project, session_id: sessions[i % 3], description: `task ${i}` }, expect: 201 });
  for (let i = 0; i < 5; i++) await request('POST', `${base}/decisions-pinned`, { body: { title: `Decision ${i}`, body: 'Because.' }, expect: 201 });
  return project;
}

/** Waits until the cache serves the local tenant (with Redis: once push is reachable). */
async function untilLive(url) {
  const started = Date.now();
  for (;;) {
    const figures = JSON.parse((await request('GET', `${url}/tunnel/diagnostics/00000000-0000-0000-0000-000000000000`)).text).pubsub.cache.board_read;
    if (figures.live) return;
    if (Date.now() - started > 15000) throw new Error('the board-read cache did not become live within 15 s (is Redis reachable at BENCH_REDIS_URL?)');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function measureSetup(root, setup, env, opts, top) {
  const { BoardReadCache } = require(path.join(root, 'dist', 'src', 'modules', 'push', 'board-read-cache.service'));
  const baton = await startBaton(root, { SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0', ...env });
  const cache = baton.app.get(BoardReadCache);
  try {
    await untilLive(baton.url);
    const project = await seed(baton.url);
    const routes = { items: `${baton.url}/projects/${project}/sprint-items`, block: `${baton.url}/projects/${project}/context-block` };
    const load = { connections: opts.connections, duration: opts.duration, warmup: opts.warmup, workers: opts.workers };
    const results = { items: { on: [], off: [] }, block: { on: [], off: [] } };
    for (let round = 0; round < opts.rounds; round++) {
      for (const on of round % 2 ? [true, false] : [false, true]) {
        cache.enabled = on;
        for (const route of ['items', 'block']) results[route][on ? 'on' : 'off'].push(await measure({ url: routes[route], ...load }));
      }
    }
    const summary = { cache: cache.stats() };
    for (const route of ['items', 'block']) {
      const of = (on) => {
        const runs = results[route][on ? 'on' : 'off'];
        return { rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50_ms)), p99: median(runs.map((r) => r.p99_ms)), ok: runs.every((r) => r.ok) };
      };
      const off = of(false);
      const on = of(true);
      for (const [label, f] of [
        ['uncached', off],
        ['cached', on],
      ]) {
        console.log(
          `${pad(`${setup} ${route} ${label}`, 30)} ${pad(f.rps, 8)} req/s  p50 ${f.p50} ms  p99 ${f.p99} ms  ratio ${ratio(f.rps, top.rps)}${f.ok ? '' : '  ERRORS: not comparable'}`,
        );
      }
      console.log(`${pad(`${setup} ${route} cached/uncached`, 30)} ${ratio(on.rps, off.rps)}`);
      summary[route] = { uncached_rps: off.rps, cached_rps: on.rps, cached_over_uncached: ratio(on.rps, off.rps), uncached_p99_ms: off.p99, cached_p99_ms: on.p99 };
    }
    return summary;
  } finally {
    await baton.close();
  }
}

async function run({ root }) {
  const opts = loadSettings({ duration: 5, warmup: 2, connections: 20, rounds: 2 });
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const setups = (process.env.BENCH_SETUPS ?? 'sqlite,redis').split(',').map((s) => s.trim());
  for (const s of setups) if (s !== 'sqlite' && s !== 'redis') throw new Error(`BENCH_SETUPS: unknown set-up ${s} (sqlite, redis)`);
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  console.log(`board-read: node ${process.version}; set-ups ${setups.join(', ')}; ${opts.connections} connections, ${opts.rounds} rounds of ${opts.duration} s`);
  let ceiling;
  try {
    ceiling = await startCeiling(root, JSON.parse(await listingBody(root)));
    const top = await measure({
      url: `${ceiling.url}/projects/00000000-0000-0000-0000-000000000000`,
      connections: opts.connections,
      duration: opts.duration,
      warmup: opts.warmup,
      workers: opts.workers,
    });
    console.log(`${pad('ceiling', 30)} ${pad(top.rps, 8)} req/s  p50 ${top.p50_ms} ms  p99 ${top.p99_ms} ms`);
    const summary = { ceiling_rps: top.rps };
    for (const setup of setups) {
      const env = setup === 'redis' ? { SERVICE_CACHE_URL: redisUrl, SERVICE_PUBSUB_PREFIX: `bench-board-${randomBytes(4).toString('hex')}` } : {};
      summary[setup] = await measureSetup(root, setup, env, opts, top);
    }
    console.log(JSON.stringify(summary));
  } finally {
    await ceiling?.close();
  }
}

/** The listing's body, from a seeded throw-away server: the ceiling answers the same bytes. */
async function listingBody(root) {
  const baton = await startBaton(root, { SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '0' });
  try {
    const project = await seed(baton.url);
    return (await request('GET', `${baton.url}/projects/${project}/sprint-items`)).text;
  } finally {
    await baton.close();
  }
}

module.exports = { run };
