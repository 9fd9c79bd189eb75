'use strict';
/**
 * search: GET /projects/{id}/search over a project of 10,000 searchable records, on both
 * storages, next to a plain indexed lookup (GET /projects/{id}) measured in the same run.
 *
 * In this process, on 127.0.0.1:
 *   sqlite    Baton self-hosted on a fresh SQLite file (FTS5, bm25);
 *   postgres  Baton hosted on a fresh Postgres database, one provisioned tenant (tsvector, GIN,
 *             ts_rank), every request with the tenant's bearer token.
 * Each gets one project filled through the API with BENCH_ITEMS records (notes, decision-log
 * entries and sprint items, 4:3:3) whose words follow a Zipf-like spread over a 400-word
 * vocabulary, so queries range from words in a handful of records to words in most of them.
 * Then one client sends, one request at a time (latency, not throughput), BENCH_QUERIES searches
 * cycling through single common words, rare words, two-word and three-word queries, and as many
 * lookups of the project by id: the ceiling reference, an indexed read through the same HTTP,
 * tenancy and database path. Both after BENCH_WARMUP unmeasured requests.
 *
 * Printed per storage: p50 / p99 / max of each, search p99 / lookup p99 (how many lookups a
 * search costs) and search p99 / 50 ms (the target: under 1).
 *
 * Settings (environment): BENCH_ITEMS (default 10000), BENCH_QUERIES (default 1000), BENCH_WARMUP
 * (requests, default 200), BENCH_SEED_CONCURRENCY (default 16), BENCH_PG_URL, BENCH_STRICT=1
 * (exit 3 when a target is missed).
 */
const { randomBytes } = require('node:crypto');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startBaton, request } = require('./lib/servers');
const { setting } = require('./lib/settings');

const P99_CEILING_MS = 50;
const pad = (s, n) => String(s).padEnd(n);
const round = (x) => Math.round(x * 100) / 100;
const ratio = (a, b) => (b > 0 ? Math.round((a / b) * 1000) / 1000 : 0);

/** A deterministic generator, so every run searches the same text. */
function generator(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vor', 'du', 'pel', 'qui', 'zan', 'bro', 'fen', 'gal', 'hux', 'jor', 'nim', 'sol', 'tre', 'wex', 'yul'];
const VOCABULARY = Array.from({ length: 400 }, (_v, i) => `${SYLLABLES[i % 20]}${SYLLABLES[Math.floor(i / 20) % 20]}${i >= 200 ? 'x' : ''}`);

/** A word whose rank follows a Zipf-like law: the first words are in most texts, the last in few. */
function zipfWord(rand) {
  return VOCABULARY[Math.min(VOCABULARY.length - 1, Math.floor(Math.pow(VOCABULARY.length, rand()) - 1))];
}

function sentence(rand, words) {
  return Array.from({ length: words }, () => zipfWord(rand)).join(' ');
}

/** The queries, in the order they are cycled: common, rare, two words, three words. */
function queries(rand, n) {
  const out = [];
  for (let i = 0; out.length < n; i++) {
    const kind = i % 4;
    if (kind === 0) out.push(VOCABULARY[Math.floor(rand() * 5)]);
    else if (kind === 1) out.push(VOCABULARY[200 + Math.floor(rand() * 200)]);
    else out.push(Array.from({ length: kind }, () => zipfWord(rand)).join(' '));
  }
  return out;
}

async function seed(url, token, projectId, items, concurrency) {
  const rand = generator(7);
  const bodies = Array.from({ length: items }, (_v, i) => {
    const kind = i % 10;
    if (kind < 4) return [`/projects/${projectId}/notes`, { title: sentence(rand, 4), body: sentence(rand, 30) }];
    if (kind < 7) return [`/projects/${projectId}/decisions`, { title: sentence(rand, 5), body: sentence(rand, 20) }];
    return [`/projects/${projectId}/sprint-items`, { title: `${sentence(rand, 6)} ${i}`, version: 'v1', force: true }];
  });
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const [p, body] = bodies[next++];
      await request('POST', url + p, { token, body, expect: 201 });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

async function timed(paths, url, token, warmup) {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const once = async (p) => {
    const started = performance.now();
    const res = await fetch(url + p, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${p} answered ${res.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < warmup; i++) await once(paths[i % paths.length]);
  const times = [];
  for (const p of paths) times.push(await once(p));
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
  return { requests: times.length, p50_ms: round(at(0.5)), p99_ms: round(at(0.99)), max_ms: round(times[times.length - 1]) };
}

async function measureStorage(name, baton, token, opts) {
  const project = (await request('POST', `${baton.url}/projects`, { token, body: { name: 'search bench' }, expect: 201 })).json;
  const started = Date.now();
  await seed(baton.url, token, project.id, opts.items, opts.concurrency);
  const seeded = Date.now() - started;
  const qs = queries(generator(11), opts.queries);
  const searchPaths = qs.map((q) => `/projects/${project.id}/search?q=${encodeURIComponent(q)}&limit=20`);
  const hits = [];
  for (const p of searchPaths.slice(0, 8)) hits.push((await request('GET', baton.url + p, { token })).json.results.length);
  const lookup = await timed(
    Array.from({ length: opts.queries }, () => `/projects/${project.id}`),
    baton.url,
    token,
    opts.warmup,
  );
  const search = await timed(searchPaths, baton.url, token, opts.warmup);
  const result = { seeded_ms: seeded, lookup, search, search_per_lookup_p99: ratio(search.p99_ms, lookup.p99_ms), search_p99_per_ceiling: ratio(search.p99_ms, P99_CEILING_MS) };
  console.log(`${pad(name, 9)} seeded ${opts.items} records in ${seeded} ms; results of the first queries: [${hits.join(', ')}]`);
  console.log(`${pad(name, 9)} lookup  GET /projects/{id}      p50 ${lookup.p50_ms} ms  p99 ${lookup.p99_ms} ms  max ${lookup.max_ms} ms`);
  console.log(
    `${pad(name, 9)} search  GET /projects/{id}/search  p50 ${search.p50_ms} ms  p99 ${search.p99_ms} ms  max ${search.max_ms} ms` +
      `  p99 search/lookup ${result.search_per_lookup_p99.toFixed(3)}  p99/${P99_CEILING_MS} ms ${result.search_p99_per_ceiling.toFixed(3)}`,
  );
  return result;
}

async function run({ root }) {
  const opts = {
    items: setting('BENCH_ITEMS', 10000, 1),
    queries: setting('BENCH_QUERIES', 1000, 1),
    warmup: setting('BENCH_WARMUP', 200, 0),
    concurrency: setting('BENCH_SEED_CONCURRENCY', 16, 1),
  };
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1' };
  console.log(`search: ${opts.items} records per project, ${opts.queries} searches and ${opts.queries} lookups one at a time after ${opts.warmup} warm-up requests`);

  const closers = [];
  try {
    const results = {};
    const sqlite = await startBaton(root, production);
    closers.push(() => sqlite.close());
    results.sqlite = await measureStorage('sqlite', sqlite, undefined, opts);
    await closers.pop()();

    const db = await createDatabase();
    closers.push(() => db.drop());
    console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
    const hosted = await startBaton(root, { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url });
    closers.push(() => hosted.close());
    const { token } = await hosted.app.get(TenantProvisioning).provision('bench');
    results.postgres = await measureStorage('postgres', hosted, token, opts);

    const met = { sqlite: results.sqlite.search.p99_ms < P99_CEILING_MS, postgres: results.postgres.search.p99_ms < P99_CEILING_MS };
    for (const key of ['sqlite', 'postgres']) {
      console.log(`p99 search ${key} ${results[key].search.p99_ms} ms (target < ${P99_CEILING_MS} ms): ${met[key] ? 'met' : 'MISSED'}`);
    }
    console.log(
      JSON.stringify({ bench: 'search', node: process.version, platform: `${process.platform}-${process.arch}`, settings: opts, ...results, ceiling_p99_ms: P99_CEILING_MS, met }),
    );
    if (process.env.BENCH_STRICT === '1' && Object.values(met).some((ok) => !ok)) process.exitCode = 3;
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

module.exports = { run };
