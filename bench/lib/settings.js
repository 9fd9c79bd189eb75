'use strict';
/** A numeric benchmark setting from the environment: `fallback` when unset, refused below `min`. */
function setting(name, fallback, min = 0) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min) throw new Error(`${name} must be a number >= ${min}`);
  return n;
}

/**
 * The settings of a benchmark that drives servers with autocannon, from the environment, with
 * that benchmark's defaults: BENCH_DURATION (measured seconds), BENCH_WARMUP (unmeasured seconds
 * first), BENCH_CONNECTIONS and BENCH_WORKERS (load-generator threads; 0 runs it on the servers'
 * thread), and BENCH_ROUNDS for a benchmark that gives `rounds` a default.
 */
function loadSettings({ duration, warmup, connections = 50, workers = 1, rounds }) {
  return {
    duration: setting('BENCH_DURATION', duration, 1),
    warmup: setting('BENCH_WARMUP', warmup, 0),
    connections: setting('BENCH_CONNECTIONS', connections, 1),
    workers: setting('BENCH_WORKERS', workers, 0),
    ...(rounds !== undefined && { rounds: setting('BENCH_ROUNDS', rounds, 1) }),
  };
}

module.exports = { setting, loadSettings };
