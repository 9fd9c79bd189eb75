#!/usr/bin/env node
'use strict';
/**
 * Baton benchmarks.
 *
 *   npm run build && npm run bench -- <name>      e.g. npm run bench -- read
 *
 * Every bench/<name>.js is a benchmark by its file name (read, board-read, claims, ...: the usage
 * line lists them). Runs bench/<name>.js on the current Node, which must be Node 24, the Node Baton runs on in
 * production (npm scripts get it from the `node` dev dependency). BENCH_NODE=current runs on
 * another Node on purpose; its figures then say nothing about production.
 */
const fs = require('node:fs');
const path = require('node:path');

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
  if (!name || !(names.includes(name) || name === 'all')) {
    process.stderr.write(`usage: npm run bench -- <name>|all\nbenchmarks: ${names.join(', ')}\n`);
    process.exit(2);
  }

  if (!process.version.startsWith('v24.') && process.env.BENCH_NODE !== 'current') {
    process.stderr.write(
      `Baton runs on Node 24 and so do its benchmarks, but this is Node ${process.version} (${process.execPath}).\n` +
        'Run them with `npm run bench -- <name>` (npm puts the Node 24 of the `node` dev dependency first on PATH),\n' +
        'or set BENCH_NODE=current to measure on this Node anyway.\n',
    );
    process.exit(2);
  }

  const root = path.resolve(__dirname, '..');
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'app.factory.js'))) {
    process.stderr.write(`${path.join(root, 'dist')} has no build: run \`npm run build\` first\n`);
    process.exit(2);
  }

  console.log(`node ${process.version} (${process.execPath}) on ${process.platform}-${process.arch}`);
  if (name === 'all') {
    // `all a b` runs only those (to repeat part of a run); plain `all` runs every benchmark.
    const only = rest.filter((n) => names.includes(n));
    await require('./lib/all').runAll({ names: only.length ? only : names, root });
    process.exit(process.exitCode ?? 0);
  }
  const bench = require(path.join(__dirname, `${name}.js`));
  await bench.run({ root, args: rest });
  // Leftover handles (pools, timers) must not keep a finished benchmark alive.
  process.exit(process.exitCode ?? 0);
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
