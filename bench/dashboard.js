'use strict';
/**
 * dashboard: what the browser dashboard costs a person opening it.
 *
 *   size         the JavaScript the built page loads first (the scripts and module preloads named in
 *                apps/dashboard/dist/index.html), gzipped as a server would send it, against a
 *                150 kB ceiling (kB = 1,000 bytes, as Vite prints).
 *   board paint  Baton self-hosted on a fresh SQLite file, one project of BENCH_ITEMS sprint items
 *                (1,000 by default, made with one sprint-batch); Chromium (playwright-core, a fresh
 *                browser context per run: nothing cached) opens the project's board BENCH_RUNS times.
 *                Measured per run, from the navigation's start: first-contentful-paint (the page's
 *                frame, before any data) and the board's own mark `baton:board-rendered`, set by the
 *                board after the frame showing its items has been painted. The median of the board
 *                marks is judged against a 1 s ceiling.
 *
 * Printed: each figure, its ratio to its ceiling (below 1: met) and `met` / `MISSED`, then one JSON line.
 * Settings (environment): BENCH_ITEMS (default 1000), BENCH_RUNS (default 5), BATON_CHROMIUM (default
 * /usr/bin/chromium), BENCH_STRICT=1 (exit 3 when a target is missed). Needs `npm run build` (server and dashboard).
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { startBaton, request } = require('./lib/servers');
const { setting } = require('./lib/settings');

const SIZE_CEILING_BYTES = 150_000;
const PAINT_CEILING_MS = 1000;
const BOARD_MARK = 'baton:board-rendered';
const BATCH_MAX = 1000;

const ratio = (a, b) => Math.round((a / b) * 1000) / 1000;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const verdict = (r) => (r < 1 ? 'met' : 'MISSED');

/** The scripts index.html loads at once: its module script and the chunks it preloads. */
function initialScripts(dist) {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/dashboard\/([^"]+\.js)"/g)].map((m) => m[1]);
  if (refs.length === 0) throw new Error(`${dist}/index.html loads no script`);
  return refs.map((ref) => {
    const bytes = fs.readFileSync(path.join(dist, ref));
    return { file: ref, bytes: bytes.length, gzip: zlib.gzipSync(bytes, { level: 9 }).length };
  });
}

async function seedBoard(url, items) {
  const project = (await request('POST', `${url}/projects`, { body: { name: 'Dashboard bench' }, expect: 201 })).json;
  for (let made = 0; made < items; made += BATCH_MAX) {
    const count = Math.min(BATCH_MAX, items - made);
    const batch = Array.from({ length: count }, (_v, i) => ({
      title: `Benchmark item ${made + i + 1}`,
      version: 'v1',
      group: `group-${(made + i) % 10}`,
      wave: `wave-${(made + i) % 4}`,
      force: true,
    }));
    await request('POST', `${url}/projects/${project.id}/sprint-batch`, { body: { op: 'create', items: batch } });
  }
  return project.id;
}

async function paintRuns(root, url, runs) {
  const { chromium } = require(path.join(root, 'node_modules', 'playwright-core'));
  const browser = await chromium.launch({ executablePath: process.env.BATON_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
  const results = [];
  try {
    // One unmeasured run: Chromium's own first start (its caches, the compositor) is not the dashboard's.
    for (let run = -1; run < runs; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await page.goto(url);
      await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, BOARD_MARK, { timeout: 30_000 });
      const figures = await page.evaluate(
        (mark) => ({
          board: performance.getEntriesByName(mark)[0].startTime,
          fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
          cards: globalThis.document.querySelectorAll('.item').length,
        }),
        BOARD_MARK,
      );
      await context.close();
      if (run >= 0) results.push(figures);
    }
  } finally {
    await browser.close();
  }
  return results;
}

async function run({ root }) {
  const items = setting('BENCH_ITEMS', 1000, 1);
  const runs = setting('BENCH_RUNS', 5, 1);
  const strict = process.env.BENCH_STRICT === '1';
  const dist = path.join(root, 'apps', 'dashboard', 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`${dist} has no build: run \`npm run build\` first`);

  const scripts = initialScripts(dist);
  const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
  const sizeRatio = ratio(gzip, SIZE_CEILING_BYTES);
  for (const s of scripts) console.log(`  ${s.file}: ${s.bytes} bytes, ${s.gzip} gzipped`);
  console.log(`initial JavaScript  ${(gzip / 1000).toFixed(1)} kB gzipped   ceiling ${SIZE_CEILING_BYTES / 1000} kB   ratio ${sizeRatio}   ${verdict(sizeRatio)}`);

  const baton = await startBaton(root, { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), APP_URL: 'http://127.0.0.1', SERVICE_DASHBOARD_DIR: dist });
  let paints;
  try {
    const projectId = await seedBoard(baton.url, items);
    paints = await paintRuns(root, `${baton.url}/dashboard/projects/${projectId}/board`, runs);
  } finally {
    await baton.close();
  }
  const board = median(paints.map((p) => p.board));
  const fcp = median(paints.map((p) => p.fcp));
  const paintRatio = ratio(board, PAINT_CEILING_MS);
  console.log(`board runs (ms)     ${paints.map((p) => Math.round(p.board)).join(', ')}   cards drawn ${paints[0].cards} of ${items}`);
  console.log(`first contentful    ${Math.round(fcp)} ms (median)`);
  console.log(`board painted       ${Math.round(board)} ms (median of ${runs}, ${items} items)   ceiling ${PAINT_CEILING_MS} ms   ratio ${paintRatio}   ${verdict(paintRatio)}`);

  const met = sizeRatio < 1 && paintRatio < 1;
  console.log(
    JSON.stringify({
      bench: 'dashboard',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      settings: { items, runs },
      initial_js_gzip_bytes: gzip,
      size_ceiling_bytes: SIZE_CEILING_BYTES,
      size_ratio: sizeRatio,
      board_paint_ms: Math.round(board),
      board_paint_runs_ms: paints.map((p) => Math.round(p.board)),
      first_contentful_paint_ms: Math.round(fcp),
      paint_ceiling_ms: PAINT_CEILING_MS,
      paint_ratio: paintRatio,
      met,
    }),
  );
  if (strict && !met) process.exitCode = 3;
}

module.exports = { run };
