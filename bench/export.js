'use strict';
/**
 * export: the full SQLite export of a workspace (`GET /export/sqlite`) while a writer goes on.
 *
 *   Baton self-hosted on a fresh SQLite file, one project of BENCH_ITEMS sprint items (10,000 by
 *   default, made with sprint-batch). A writer adds notes one after the other, as fast as they are
 *   answered, first alone for BENCH_IDLE_MS (its own ceiling: how long a write takes here when
 *   nothing else happens), then while the export is taken and downloaded.
 *
 * Printed: the writer's slowest and 99th-percentile write alone and during the export, the
 * slowest write during the export against the 100 ms target (ratio below 1: met), the export's
 * time and size; then whether the file opens with the `sqlite3` shell (integrity_check), and
 * whether each table's row count in the file is the source's (tables the writer touched: between
 * the count before the export was asked for and the count after it was received). Last, one JSON
 * line. Settings: BENCH_ITEMS (default 10000), BENCH_IDLE_MS (default 2000), BENCH_STRICT=1 (exit 3
 * when the target is missed or a count differs). Needs `npm run build`.
 */
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { performance } = require('node:perf_hooks');
const { startBaton, request } = require('./lib/servers');
const { setting } = require('./lib/settings');
const { ratio, verdict } = require('./lib/figures');

const BLOCKED_CEILING_MS = 100;
const BATCH_MAX = 1000;

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const round = (ms) => Math.round(ms * 10) / 10;

async function seed(url, items) {
  const project = (await request('POST', `${url}/projects`, { body: { name: 'Export bench' }, expect: 201 })).json;
  for (let made = 0; made < items; made += BATCH_MAX) {
    const count = Math.min(BATCH_MAX, items - made);
    const batch = Array.from({ length: count }, (_v, i) => ({ title: `Export item ${made + i + 1}`, version: 'v1', group: `group-${(made + i) % 10}`, force: true }));
    await request('POST', `${url}/projects/${project.id}/sprint-batch`, { body: { op: 'create', items: batch } });
  }
  return project.id;
}

/** Writes notes one after another until `stop()`; resolves with each write's time in ms. */
function writer(url, projectId) {
  let running = true;
  const times = [];
  const done = (async () => {
    for (let n = 0; running; n++) {
      const started = performance.now();
      await request('POST', `${url}/projects/${projectId}/notes`, { body: { title: `writer note ${n}`, body: 'written while the export runs' }, expect: 201 });
      times.push(performance.now() - started);
    }
    return times;
  })();
  return {
    stop: () => {
      running = false;
      return done;
    },
  };
}

const shell = promisify(execFile);

/** The lines the sqlite3 shell prints for `query` (a child process: the server in this process is not held up meanwhile). */
async function sqlite3(file, query) {
  return (await shell('sqlite3', [file, query], { encoding: 'utf8' })).stdout.trim().split('\n').filter(Boolean);
}

/** Row counts of the ordinary tables, by the sqlite3 shell (full-text virtual tables and their shadows are derived, and left out). */
async function counts(file) {
  const sql = (query) => sqlite3(file, query);
  const virtual = await sql("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'");
  const tables = (await sql("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")).filter(
    (t) => !virtual.some((v) => t === v || t.startsWith(`${v}_`)),
  );
  // One shell run for all the counts: they are read in one transaction, one moment of the file.
  const values = await sql(`SELECT ${tables.map((t) => `(SELECT count(*) FROM "${t}")`).join(', ')}`);
  const numbers = values[0].split('|').map(Number);
  return Object.fromEntries(tables.map((t, i) => [t, numbers[i]]));
}

async function run({ root }) {
  const items = setting('BENCH_ITEMS', 10_000, 1);
  const idleMs = setting('BENCH_IDLE_MS', 2000, 100);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-export-bench-'));
  const database = path.join(folder, 'service.db');
  const baton = await startBaton(root, { SERVICE_DB: database, NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1' });
  try {
    const projectId = await seed(baton.url, items);
    console.log(`seeded: ${items} sprint items in one project`);

    const alone = writer(baton.url, projectId);
    await new Promise((resolve) => setTimeout(resolve, idleMs));
    const idle = await alone.stop();

    const during = writer(baton.url, projectId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const before = await counts(database);
    const asked = performance.now();
    const res = await fetch(`${baton.url}/export/sqlite`);
    if (res.status !== 200) throw new Error(`GET /export/sqlite answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const file = path.join(folder, 'export.sqlite');
    // Streamed to the file as it arrives, as a download would be (the server runs in this process).
    await pipeline(Readable.fromWeb(res.body), fs.createWriteStream(file));
    const exportMs = performance.now() - asked;
    const after = await counts(database);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const busy = await during.stop();

    const integrity = (await sqlite3(file, 'PRAGMA integrity_check')).join(' ');
    const exported = await counts(file);
    const mismatches = Object.keys(before)
      .filter((t) => t !== 'baton_migrations' && !(t.startsWith('site_') || t === 'admin_audit'))
      .filter((t) => !(exported[t] >= before[t] && exported[t] <= after[t]))
      .map((t) => `${t}: file ${exported[t]}, source ${before[t]}..${after[t]}`);

    const slowest = Math.max(...busy);
    const r = ratio(slowest, BLOCKED_CEILING_MS);
    console.log(`writer alone:        ${idle.length} writes, p99 ${round(percentile(idle, 0.99))} ms, slowest ${round(Math.max(...idle))} ms`);
    console.log(`writer during export: ${busy.length} writes, p99 ${round(percentile(busy, 0.99))} ms, slowest ${round(slowest)} ms`);
    console.log(`slowest write during export vs ${BLOCKED_CEILING_MS} ms: ratio ${r} ${verdict(r < 1)}`);
    console.log(`export: ${round(exportMs)} ms, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`);
    console.log(`sqlite3 integrity_check: ${integrity}`);
    console.log(
      `row counts: ${mismatches.length === 0 ? `match (sprint_items ${exported.sprint_items}, project_notes ${exported.project_notes})` : `DIFFER ${mismatches.join('; ')}`}`,
    );
    const summary = {
      items,
      idle_p99_ms: round(percentile(idle, 0.99)),
      idle_max_ms: round(Math.max(...idle)),
      during_p99_ms: round(percentile(busy, 0.99)),
      during_max_ms: round(slowest),
      blocked_ratio: r,
      export_ms: round(exportMs),
      integrity,
      counts_match: mismatches.length === 0,
    };
    console.log(JSON.stringify(summary));
    if (process.env.BENCH_STRICT === '1' && (r >= 1 || mismatches.length > 0 || integrity !== 'ok')) process.exitCode = 3;
  } finally {
    await baton.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

module.exports = { run };
