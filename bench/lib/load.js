'use strict';
/** Drives one URL with autocannon and reduces the result to the figures the benchmarks print. */
const autocannon = require('autocannon');

/**
 * @param {object} o
 * @param {string} o.url
 * @param {Record<string,string>} [o.headers]
 * @param {string} [o.method]   default GET
 * @param {string} [o.body]     sent with every request
 * @param {object[]} [o.requests] autocannon's request sequence, which each connection cycles through
 * @param {number} o.connections
 * @param {number} [o.amount]   requests to send in all, instead of a duration (a pass of a fixed size)
 * @param {number} o.duration   seconds of measured load (ignored with `amount`)
 * @param {number} o.warmup     seconds of unmeasured load first (JIT, pools, caches)
 * @param {number} o.workers    load-generator threads (0: on the main thread, beside the servers)
 */
async function measure({ url, headers = {}, method, body, requests, connections, amount, duration, warmup, workers }) {
  const base = { url, headers, method: method ?? 'GET', connections, workers: workers > 0 ? workers : undefined };
  if (body !== undefined) base.body = body;
  if (requests !== undefined) base.requests = requests;
  if (warmup > 0) await autocannon({ ...base, duration: warmup });
  // A run of `amount` requests ends at the first sample after the last answer: short samples keep
  // its length (and so its rate) exact.
  const r = await autocannon(amount ? { ...base, amount, sampleInt: 10 } : { ...base, duration });
  const bad = r.errors + r.timeouts + r.non2xx;
  return {
    rps: amount ? Math.round(r.requests.total / r.duration) : Math.round(r.requests.average),
    seconds: r.duration,
    requests: r.requests.total,
    p50_ms: r.latency.p50,
    p99_ms: r.latency.p99,
    max_ms: r.latency.max,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    ok: bad === 0 && r.requests.total > 0,
  };
}

module.exports = { measure };
