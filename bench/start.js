'use strict';
/**
 * start: how fast Baton starts and how small it is at rest, self-hosted.
 *
 *   npm run build && npm run bench -- start
 *
 * Starts what `npm start` runs after its build (node, the flags of package.json's "start",
 * dist/src/main.js) BENCH_COLD_RUNS times, one after the other, each on a fresh SQLite data
 * directory with NODE_ENV=production (bench/lib/cold-start.js): the time from spawning it until
 * GET /health first answers 200, and its resident memory (VmRSS) BENCH_SETTLE_MS later. The medians
 * of the runs are judged against the goals: a start under 1 s, an idle process under 100 MB.
 *
 * Settings (environment): BENCH_COLD_RUNS (5), BENCH_SETTLE_MS (2000), BENCH_START_MS (ceiling,
 * 1000), BENCH_IDLE_RSS_MB (ceiling, 100), BENCH_STRICT=1 (exit 3 when a figure is missed).
 */
const { coldStart, startCommand } = require('./lib/cold-start');
const { figureRow, median, printFigures } = require('./lib/figures');
const { setting } = require('./lib/settings');
const { stopOnInterrupt } = require('./lib/interrupt');

async function run({ root }) {
  const opts = { coldRuns: setting('BENCH_COLD_RUNS', 5, 1), settleMs: setting('BENCH_SETTLE_MS', 2000, 0) };
  const ceilings = { start_ms: setting('BENCH_START_MS', 1000, 1), idle_rss_mb: setting('BENCH_IDLE_RSS_MB', 100, 1) };
  const check = stopOnInterrupt();
  const command = ['node', ...startCommand(root).flat()].join(' ');
  console.log(`start: ${command}, self-hosted on a fresh SQLite data directory, ${opts.coldRuns} runs, RSS read ${opts.settleMs} ms after ready`);

  const runs = [];
  for (let i = 0; i < opts.coldRuns; i++) {
    check();
    const one = await coldStart(root, { settleMs: opts.settleMs });
    console.log(`run ${i + 1}: GET /health 200 after ${one.ready_ms} ms, idle RSS ${one.rss_mb ?? '?'} MB`);
    runs.push(one);
  }
  const startMs = Math.round(median(runs.map((r) => r.ready_ms)));
  const rssValues = runs.map((r) => r.rss_mb).filter((v) => v !== undefined);
  const rssMb = rssValues.length ? Math.round(median(rssValues) * 10) / 10 : undefined;

  const rows = [
    figureRow({ figure: 'cold start until GET /health 200 (median)', value: startMs, unit: 'ms', ceiling: ceilings.start_ms }),
    figureRow({
      figure: 'idle RSS (median)',
      value: rssMb ?? null,
      unit: 'MB',
      ceiling: ceilings.idle_rss_mb,
      ...(rssMb === undefined && { comparable: false, note: 'no /proc' }),
    }),
  ];
  printFigures(rows);
  if (process.env.BENCH_STRICT === '1' && rows.some((r) => !r.met)) process.exitCode = 3;
  console.log(
    JSON.stringify({
      bench: 'start',
      command,
      settings: opts,
      start_ms: { median: startMs, runs: runs.map((r) => r.ready_ms) },
      idle_rss_mb: { median: rssMb ?? null, runs: rssValues },
      figures: rows,
    }),
  );
}

module.exports = { run };
