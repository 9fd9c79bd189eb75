'use strict';
/**
 * instructions: what a read costs Baton's server in machine instructions, against the bare NestJS
 * ceiling of bench/read.js, counted by callgrind (valgrind) instead of timed.
 *
 *   npm run build && npm run bench -- instructions
 *
 * Timed figures on a shared machine move by tens of percent from one run to the next; an
 * instruction count does not depend on what else the machine is doing. Each server (Baton
 * self-hosted on a fresh SQLite file with one project, and the ceiling answering the same JSON
 * body) runs in its own process under `valgrind --tool=callgrind`, on Node with V8's predictable
 * mode and fixed seeds (`--predictable --hash-seed=1 --random-seed=1`: no background compiler or
 * collector threads, the same hashes every run). This process is the client, outside valgrind, so
 * only the server's work is counted: BENCH_WARMUP requests, then the counters are zeroed
 * (`callgrind_control -z`), BENCH_REQUESTS requests one after the other on one keep-alive
 * connection, and the counters are read (`callgrind_control -d`). Both servers are measured side by
 * side, BENCH_ROUNDS times; the least count of each is kept, since what varies between runs is
 * work added by timers firing more often in a slow run (valgrind runs code about fifty times
 * slower), never work taken away.
 *
 * The figure is ceiling ÷ Baton, instructions per request: the share of Baton's own work per read
 * that is the framework's. It is the steady counterpart of bench/read.js's throughput ratio (goal
 * 0.7), not the same number: a throughput ratio also carries the kernel's share of each request.
 *
 * Needs valgrind (Debian's package `valgrind`, which brings callgrind_control). A few minutes.
 *
 * Settings (environment): BENCH_REQUESTS (1000), BENCH_WARMUP (1000), BENCH_ROUNDS (2),
 * BENCH_STRICT=1 (exit 3 when the figure is missed).
 */
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const { figureRow, printFigures } = require('./lib/figures');
const { stopChild } = require('./lib/servers');
const { setting } = require('./lib/settings');
const { stopOnInterrupt } = require('./lib/interrupt');

const GOAL = 0.7;
const NODE_FLAGS = ['--predictable', '--hash-seed=1', '--random-seed=1'];

async function run({ root }) {
  const opts = { requests: setting('BENCH_REQUESTS', 1000, 1), warmup: setting('BENCH_WARMUP', 1000, 0), rounds: setting('BENCH_ROUNDS', 2, 1) };
  const missing = ['valgrind', 'callgrind_control'].filter((tool) => spawnSync(tool, ['--version']).status !== 0);
  if (missing.length > 0) {
    console.log(`instructions: ${missing.join(' and ')} not found (Debian's package valgrind); nothing measured`);
    const rows = [
      figureRow({ figure: 'read: ceiling ÷ Baton, server instructions per request', value: null, ceiling: GOAL, goal: 'above', comparable: false, note: 'valgrind not installed' }),
    ];
    printFigures(rows);
    console.log(JSON.stringify({ bench: 'instructions', settings: opts, figures: rows }));
    return;
  }
  const check = stopOnInterrupt();
  console.log(
    `instructions: GET /projects/{id}, ${opts.requests} requests one after the other after ${opts.warmup} unmeasured, ` +
      `each server under callgrind on node ${NODE_FLAGS.join(' ')}, ${opts.rounds} round(s), least count kept`,
  );

  const counts = { sqlite: [], ceiling: [] };
  for (let round = 0; round < opts.rounds; round++) {
    check();
    const baton = await underCallgrind(root, ['sqlite']);
    try {
      const body = await get(baton, baton.path);
      const ceiling = await underCallgrind(root, ['ceiling', body]);
      try {
        const [sqlite, bare] = await Promise.all([measure(baton, opts), measure(ceiling, opts)]);
        counts.sqlite.push(sqlite);
        counts.ceiling.push(bare);
        console.log(`round ${round + 1}: Baton ${sqlite.toLocaleString('en')} and ceiling ${bare.toLocaleString('en')} instructions per request`);
      } finally {
        await ceiling.stop();
      }
    } finally {
      await baton.stop();
    }
  }
  const sqlite = Math.min(...counts.sqlite);
  const ceiling = Math.min(...counts.ceiling);
  const value = Math.round((ceiling / sqlite) * 1000) / 1000;
  console.log(`least: Baton self-hosted ${sqlite.toLocaleString('en')}, ceiling ${ceiling.toLocaleString('en')} instructions per request`);
  const rows = [figureRow({ figure: 'read: ceiling ÷ Baton, server instructions per request (SQLite)', value, ceiling: GOAL, goal: 'above' })];
  printFigures(rows);
  if (process.env.BENCH_STRICT === '1' && rows.some((r) => !r.met)) process.exitCode = 3;
  console.log(JSON.stringify({ bench: 'instructions', settings: opts, instructions_per_request: { sqlite: counts.sqlite, ceiling: counts.ceiling }, figures: rows }));
}

/** A server of bench/lib/instructions-server.js started under callgrind, once it serves. */
async function underCallgrind(root, args) {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'baton-callgrind-'));
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${path.join(outDir, 'cg.%p')}`,
      process.execPath,
      ...NODE_FLAGS,
      path.join(__dirname, 'lib', 'instructions-server.js'),
      root,
      ...args,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: process.env },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let errors = '';
  child.stderr.on('data', (d) => (errors = (errors + d).slice(-4000)));
  const address = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    void exited.then((code) => reject(new Error(`the ${args[0]} server exited (${code}) before it served:\n${errors}`)));
  });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    ...address,
    pid: child.pid,
    agent,
    outDir,
    async stop() {
      agent.destroy();
      await stopChild(child, exited, 120_000);
      fs.rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** Instructions per request of `server` over `requests` reads, after `warmup` unmeasured ones. */
async function measure(server, { requests, warmup }) {
  for (let i = 0; i < warmup; i++) await get(server, server.path);
  control('-z', server.pid);
  for (let i = 0; i < requests; i++) await get(server, server.path);
  control('-d', server.pid);
  const dumps = fs
    .readdirSync(server.outDir)
    .filter((f) => f.startsWith(`cg.${server.pid}.`))
    .map((f) => path.join(server.outDir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  if (dumps.length === 0) throw new Error(`callgrind wrote no dump for process ${server.pid}`);
  const totals = /^(?:totals|summary): (\d+)/m.exec(fs.readFileSync(dumps[0], 'utf8'));
  if (!totals) throw new Error(`no totals in ${dumps[0]}`);
  return Math.round(Number(totals[1]) / requests);
}

/** Asks callgrind in process `pid` to zero (`-z`) or dump (`-d`) its counters, and waits for it. */
function control(command, pid) {
  const done = spawnSync('callgrind_control', [command, String(pid)], { encoding: 'utf8', timeout: 120_000 });
  if (done.status !== 0) throw new Error(`callgrind_control ${command} ${pid} failed: ${done.stderr || done.stdout}`);
}

/** The body of GET `route` on `server` (its keep-alive connection), which must answer 200. */
function get(server, route) {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(server.url);
    const req = http.request({ host: hostname, port, path: route, agent: server.agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`GET ${route} answered ${res.statusCode}: ${body.slice(0, 200)}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

module.exports = { run };
