'use strict';
/**
 * mcp: what a tool call costs next to the REST read it mirrors.
 *
 * The same read, one project by id, is driven through `GET /projects/{id}` and through
 * `POST /mcp` (stateless Streamable HTTP, JSON responses) as `tools/call` of `get_project`, with
 * the same connections for the same time, one after the other, on two set-ups in this process:
 *   sqlite    Baton self-hosted on a fresh SQLite file;
 *   postgres  Baton hosted on a fresh Postgres database, one provisioned tenant, bearer token.
 * Printed per set-up: req/s of both doors, the server thread's CPU per request of each, and the
 * ratio mcp/rest (target >= 0.8). Every tool
 * call is also recorded in the AI-log, as in production: that write is part of its cost. A
 * third door, the same call with the AI-log's observer unregistered, shows the transport alone; a
 * fourth, the same call within an MCP session (Mcp-Session-Id), what the session's lookup adds.
 *
 * Settings (environment): BENCH_DURATION (s per round and door, default 5), BENCH_ROUNDS
 * (default 2), BENCH_WARMUP (s, default 2),
 * BENCH_CONNECTIONS (default 50), BENCH_WORKERS (default 1), BENCH_TOKENS (hosted tokens the
 * connections send in turn, default 50; 1 puts every call on one token's MCP budget),
 * BENCH_PG_URL, BENCH_SETUPS (which set-ups to measure, default `sqlite,postgres`), BENCH_STRICT=1
 * (exit 3 when a target is missed or a request failed).
 */
const { randomBytes } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('pg');
const { measure } = require('./lib/load');
const { createDatabase, ADMIN_URL } = require('./lib/postgres');
const { startBaton, request, acceptOverage } = require('./lib/servers');
const { pad, ratio, verdict } = require('./lib/figures');
const { loadSettings, setting } = require('./lib/settings');

const TARGETS = { mcp_rest_ratio_min: 0.8 };
// The version the SDK's own client sends after initializing; a stateless server takes it as it is.
const PROTOCOL_VERSION = '2025-06-18';

/** The set-ups BENCH_SETUPS names (comma-separated), both when unset. */
function setupsOf(given) {
  if (given === undefined || given.trim() === '') return ['sqlite', 'postgres'];
  const names = given.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => name !== 'sqlite' && name !== 'postgres');
  if (unknown.length > 0 || names.length === 0) throw new Error(`BENCH_SETUPS: ${unknown.join(', ')} is not a set-up (sqlite, postgres)`);
  return names;
}

const perRequest = (ms, of) =>
  Math.round(
    ms.reduce((sum, m) => sum + of(m), 0) /
      Math.max(
        1,
        ms.reduce((sum, m) => sum + m.requests, 0),
      ),
  );

/** The headers and body of one `tools/call` of get_project, as the SDK's client sends them. */
function toolCall(projectId, token) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_project', arguments: { project_id: projectId } } });
  return { headers, body };
}

/** Opens an MCP session with the headers of a call (its token); answers the session id. */
async function openSession(url, headers) {
  const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
  const id = res.headers.get('mcp-session-id');
  if (res.status !== 200 || !id) throw new Error(`initialize answered ${res.status} without a session`);
  await fetch(`${url}/mcp`, { method: 'POST', headers: { ...headers, 'mcp-session-id': id }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  return id;
}

/** Sends the call once and checks it answers the same project as the REST read. */
async function checkToolCall(url, call, restBody) {
  const res = await fetch(`${url}/mcp`, { method: 'POST', headers: call.headers, body: call.body });
  const answer = await res.json();
  const text = answer?.result?.content?.[0]?.text;
  if (res.status !== 200 || answer.result.isError || JSON.parse(text).id !== restBody.id) {
    throw new Error(`tools/call get_project answered ${res.status}: ${JSON.stringify(answer).slice(0, 300)}`);
  }
}

/** CPU time of this thread in µs: the servers' (the load generator runs in a worker thread, Postgres elsewhere). */
function threadCpu() {
  const u = process.threadCpuUsage();
  return u.user + u.system;
}

/**
 * CPU time in µs of each Postgres backend connected to `database`, by pid, or undefined where
 * Postgres is not a local process this one can read /proc of. The backends do a write's commit
 * themselves, so an AI-log insert's database cost shows here.
 */
async function backendCpu(database) {
  if (!database || !fs.existsSync('/proc/self/stat')) return undefined;
  const client = new Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
    const used = new Map();
    for (const { pid } of rows) {
      // utime and stime, the 14th and 15th fields, counted after the command name's closing parenthesis.
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      used.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS);
    }
    return used;
  } catch {
    return undefined;
  } finally {
    await client.end();
  }
}

// Linux's USER_HZ, the unit of /proc/<pid>/stat times, on every architecture Node runs on there.
const CLOCK_TICKS = 100;

/** The CPU the backends used between two readings (a backend that left in between is not counted). */
function backendCpuUsed(before, after) {
  if (!before || !after) return undefined;
  let used = 0;
  for (const [pid, us] of after) used += us - (before.get(pid) ?? 0);
  return used;
}

/**
 * One measurement of a door, after its warm-up, with the CPU time it took: the server thread's,
 * and (hosted) the database backends'.
 */
async function measureCpu(door, load, database) {
  if (load.warmup > 0) await measure({ ...door, ...load, duration: load.warmup, warmup: 0 });
  const db0 = await backendCpu(database);
  const cpu0 = threadCpu();
  const m = await measure({ ...door, ...load, warmup: 0 });
  const cpuUs = threadCpu() - cpu0;
  return { ...m, cpuUs, dbCpuUs: backendCpuUsed(db0, await backendCpu(database)) };
}

/**
 * The doors measured in alternating rounds (in order, then reversed, ...), so that a change in
 * what else runs on the machine weighs on all alike; per door, the rounds' req/s are averaged,
 * the worst latencies kept and the CPU time summed. A door's `around` wraps its measurement
 * (AI-log capture off).
 */
async function alternate(doors, load, rounds, database) {
  const names = Object.keys(doors);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const { around = (f) => f(), ...door } = doors[name];
      runs[name].push(await around(() => measureCpu(door, { ...load, warmup: round === 0 ? load.warmup : 0 }, database)));
    }
  }
  const pooled = (ms) => ({
    rps: Math.round(ms.reduce((sum, m) => sum + m.rps, 0) / ms.length),
    requests: ms.reduce((sum, m) => sum + m.requests, 0),
    p50_ms: Math.max(...ms.map((m) => m.p50_ms)),
    p99_ms: Math.max(...ms.map((m) => m.p99_ms)),
    max_ms: Math.max(...ms.map((m) => m.max_ms)),
    errors: ms.reduce((sum, m) => sum + m.errors, 0),
    timeouts: ms.reduce((sum, m) => sum + m.timeouts, 0),
    non2xx: ms.reduce((sum, m) => sum + m.non2xx, 0),
    ok: ms.every((m) => m.ok),
    server_cpu_us_per_request: perRequest(ms, (m) => m.cpuUs),
    ...(ms.every((m) => m.dbCpuUs !== undefined) && { database_cpu_us_per_request: perRequest(ms, (m) => m.dbCpuUs) }),
  });
  return Object.fromEntries(names.map((name) => [name, pooled(runs[name])]));
}

/** Runs `measure` with the AI-log's tool-call observer unregistered, as the ai-log-capture benchmark does. */
function withoutAiLog(root, app) {
  const { ToolCallObservers } = require(path.join(root, 'dist', 'src', 'mcp', 'tool-call-observers'));
  const { AiLogCaptureService } = require(path.join(root, 'dist', 'src', 'modules', 'ai-log', 'ai-log-capture.service'));
  const observers = app.get(ToolCallObservers);
  const capture = app.get(AiLogCaptureService);
  return async (measure) => {
    if (!observers.unregister('ai-log')) throw new Error('the AI-log observer was not registered');
    try {
      return await measure();
    } finally {
      observers.register('ai-log', (call) => capture.toolCall(call));
    }
  };
}

async function run({ root }) {
  const opts = {
    ...loadSettings({ duration: 5, warmup: 2, rounds: 2 }),
    tokens: setting('BENCH_TOKENS', 50, 1),
    setups: setupsOf(process.env.BENCH_SETUPS),
  };
  process.env.NODE_ENV = 'production';
  require(path.join(root, 'node_modules', 'reflect-metadata'));
  const { TenantProvisioning } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'tenant-provisioning.service'));
  const { ApiTokens } = require(path.join(root, 'dist', 'src', 'modules', 'tenants', 'api-tokens.service'));
  // The MCP budget per token would refuse a benchmark's load after 100 calls.
  const production = { NODE_ENV: 'production', SESSION_SECRET: randomBytes(24).toString('hex'), SERVICE_MCP_RATE_LIMIT: '1000000' };
  console.log(
    `mcp: get_project through tools/call on POST /mcp and through GET /projects/{id}, ${opts.connections} connections, ` +
      `${opts.rounds} round(s) of ${opts.duration} s per door, alternating, after ${opts.warmup} s warm-up each`,
  );

  const closers = [];
  try {
    const setups = [];
    if (opts.setups.includes('sqlite')) {
      const sqlite = await startBaton(root, { ...production, APP_URL: 'http://127.0.0.1' });
      closers.push(() => sqlite.close());
      const sqliteProject = (await request('POST', `${sqlite.url}/projects`, { body: { name: 'bench' }, expect: 201 })).json;
      setups.push(['sqlite', 'Baton self-hosted', sqlite, sqliteProject, undefined, undefined]);
    }
    if (opts.setups.includes('postgres')) {
      const db = await createDatabase();
      closers.push(() => db.drop());
      console.log(`postgres: database ${db.name} on ${new URL(ADMIN_URL).host} (dropped at the end)`);
      const hosted = await startBaton(root, { ...production, SERVICE_MODE: 'hosted', SERVICE_DB_URL: db.url, APP_URL: 'http://127.0.0.1' });
      closers.push(() => hosted.close());
      const { tenant_id: tenantId, token } = await hosted.app.get(TenantProvisioning).provision('bench');
      // Tokens the connections take in turn, each with its own MCP budget; BENCH_TOKENS=1 puts every call on one budget.
      const tokens = [token];
      while (tokens.length < opts.tokens) tokens.push(await hosted.app.get(ApiTokens).createToken(tenantId, `bench ${tokens.length}`));
      await acceptOverage(hosted.url, token);
      const hostedProject = (await request('POST', `${hosted.url}/projects`, { token, body: { name: 'bench' }, expect: 201 })).json;
      setups.push(['postgres', `Baton hosted, ${opts.tokens} token${opts.tokens === 1 ? '' : 's'}`, hosted, hostedProject, tokens, db.name]);
    }

    const load = { connections: opts.connections, duration: opts.duration, warmup: opts.warmup, workers: opts.workers };
    const results = {};
    for (const [key, label, server, project, bearers, database] of setups) {
      const call = toolCall(project.id, bearers?.[0]);
      await checkToolCall(server.url, call, project);
      // Both doors send the same tokens in the same turns.
      const inTurn = (headers) => (bearers?.length > 1 ? { requests: bearers.map((t) => ({ headers: { ...headers, authorization: `Bearer ${t}` } })) } : {});
      const mcpDoor = { url: `${server.url}/mcp`, method: 'POST', headers: call.headers, body: call.body, ...inTurn(call.headers) };
      const restHeaders = bearers ? { authorization: `Bearer ${bearers[0]}` } : {};
      // The same call within an MCP session (Mcp-Session-Id), one session per token: what the session's lookup adds.
      const sessionHeaders = [];
      for (const bearer of bearers ?? [undefined]) {
        const headers = bearer ? { ...call.headers, authorization: `Bearer ${bearer}` } : call.headers;
        sessionHeaders.push({ ...headers, 'mcp-session-id': await openSession(server.url, headers) });
      }
      await checkToolCall(server.url, { ...call, headers: sessionHeaders[0] }, project);
      const doors = {
        rest: { url: `${server.url}/projects/${project.id}`, headers: restHeaders, ...inTurn({}) },
        mcp: mcpDoor,
        'mcp, no AI-log': { ...mcpDoor, around: withoutAiLog(root, server.app) },
        'mcp, session': { ...mcpDoor, headers: sessionHeaders[0], ...(sessionHeaders.length > 1 && { requests: sessionHeaders.map((headers) => ({ headers })) }) },
      };
      // A tool call refused inside a 200 (isError) would count as served: after the rounds, the same
      // call must still answer the project, through both kinds of door.
      const measured = await alternate(doors, load, opts.rounds, database);
      await checkToolCall(server.url, call, project);
      await checkToolCall(server.url, { ...call, headers: sessionHeaders[0] }, project);
      const { rest, mcp } = measured;
      const bare = measured['mcp, no AI-log'];
      const session = measured['mcp, session'];
      const r = ratio(mcp.rps, rest.rps);
      results[key] = {
        rest,
        mcp,
        mcp_without_ai_log: bare,
        mcp_session: session,
        ratio: r,
        ratio_without_ai_log: ratio(bare.rps, rest.rps),
        ratio_session: ratio(session.rps, mcp.rps),
        met: r >= TARGETS.mcp_rest_ratio_min,
      };
      for (const [door, m] of Object.entries(measured)) {
        const bad = m.ok ? '' : `  (errors ${m.errors}, timeouts ${m.timeouts}, non-2xx ${m.non2xx})`;
        const db = m.database_cpu_us_per_request === undefined ? '' : `, database ${m.database_cpu_us_per_request}`;
        const cpu = `CPU µs/request: server ${m.server_cpu_us_per_request}${db}`;
        console.log(`${pad(key, 9)} ${pad(door, 15)} ${pad(`(${label})`, 30)} ${String(m.rps).padStart(7)} req/s  p50 ${m.p50_ms} ms  p99 ${m.p99_ms} ms  ${cpu}${bad}`);
      }
      console.log(`${pad(key, 9)} ratio mcp/rest ${r.toFixed(3)} (target >= ${TARGETS.mcp_rest_ratio_min}): ${verdict(results[key].met)}`);
      console.log(`${pad(key, 9)} ratio mcp/rest without the AI-log write ${results[key].ratio_without_ai_log.toFixed(3)} (no target: what the transport alone costs)`);
      console.log(`${pad(key, 9)} ratio session/stateless ${results[key].ratio_session.toFixed(3)} (no target: what a session's lookup costs a call)`);
    }
    const clean = Object.values(results).every((r) => r.rest.ok && r.mcp.ok && r.mcp_without_ai_log.ok && r.mcp_session.ok);
    if (!clean) console.log('WARNING: some requests failed during the load; the figures above are not comparable');
    const met = Object.fromEntries(Object.entries(results).map(([key, r]) => [`${key}_ratio`, r.met]));
    console.log(
      JSON.stringify({
        bench: 'mcp',
        node: process.version,
        platform: `${process.platform}-${process.arch}`,
        settings: opts,
        ...results,
        targets: TARGETS,
        met,
        all_requests_ok: clean,
      }),
    );
    if (process.env.BENCH_STRICT === '1' && (!clean || Object.values(met).some((ok) => !ok))) process.exitCode = 3;
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
