#!/usr/bin/env node
'use strict';
/**
 * Baton benchmarks.
 *
 *   npm run build && npm run bench -- <name>      e.g. npm run bench -- read
 *
 * Runs bench/<name>.js. When Node 24 is in .ci/node24 (see .ci/install-node24) and this
 * process is on another Node, the benchmark runs on Node 24 from a prepared copy of the
 * repository (bench/lib/node24.js explains why). BENCH_NODE=current keeps the current Node.
 */
const fs = require('node:fs');
const path = require('node:path');
const node24 = require('./lib/node24');

function available() {
  return fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.js') && f !== 'run.js')
    .map((f) => f.slice(0, -3))
    .sort();
}

async function main() {
  const [name, ...rest] = process.argv.slice(2);
  const names = available();
  if (!name || !names.includes(name)) {
    process.stderr.write(`usage: npm run bench -- <name>\nbenchmarks: ${names.join(', ')}\n`);
    process.exit(2);
  }

  const wantCurrent = process.env.BENCH_NODE === 'current';
  if (!wantCurrent && !process.env.BATON_BENCH_CHILD && !process.version.startsWith('v24.')) {
    if (node24.node24Available()) return node24.reexecOnNode24([name, ...rest]);
    process.stderr.write(
      `Node 24 is not in .ci/node24 (run .ci/install-node24 to get it); running on the current Node ${process.version}\n`,
    );
  }

  const root = path.resolve(__dirname, '..');
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'app.factory.js'))) {
    process.stderr.write(`${path.join(root, 'dist')} has no build: run \`npm run build\` first\n`);
    process.exit(2);
  }

  console.log(`node ${process.version} (${process.execPath}) on ${process.platform}-${process.arch}`);
  const bench = require(path.join(__dirname, `${name}.js`));
  await bench.run({ root, args: rest });
  // Leftover handles (pools, timers) must not keep a finished benchmark alive.
  process.exit(process.exitCode ?? 0);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
