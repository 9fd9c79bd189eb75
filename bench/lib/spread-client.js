'use strict';
/**
 * autocannon `setupClient` module: gives each connection its own request from the JSON list in
 * BENCH_SPREAD_REQUESTS (`[{method, path, body?}]`, taken in turn; a body is sent as JSON), so
 * concurrent writes do not all queue on one row's lock. A module, not a function, so that it also
 * works in worker threads.
 */
const requests = JSON.parse(process.env.BENCH_SPREAD_REQUESTS || '[]');
let next = 0;

module.exports = function setupClient(client) {
  if (requests.length === 0) return;
  const { method, path, body } = requests[next++ % requests.length];
  client.setRequests([body === undefined ? { method, path } : { method, path, body, headers: { 'content-type': 'application/json' } }]);
};
