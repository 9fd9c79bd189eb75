'use strict';
/**
 * `npm run bench -- all`: every benchmark, one after the other, each in its own process (one that
 * fails does not stop the others), then one table of every figure (figure, value, ceiling, ratio,
 * goal, met or missed) and the same as JSON, printed last and written to BENCH_OUT
 * (default bench-all.json in the working directory).
 *
 * A benchmark's figures are the `figures` of its JSON summary line (see figureRow). One that has
 * none gives one line per target it judged (its `met`), without values. A figure is marked NOT
 * COMPARABLE when its benchmark failed, printed no summary, or reported requests that failed under
 * load (`all_requests_ok: false`, or `ok: false` on any measurement).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { printFigures } = require('./figures');

function runOne(name) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'run.js'), name], { stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      err += d;
      process.stderr.write(d);
    });
    child.on('exit', (code, signal) => resolve({ code: code ?? signal, out, why: /^bench failed: (?:Error: )?(.*)$/m.exec(err)?.[1] }));
  });
}

/** The last line of `out` that parses as a JSON object. */
function summaryOf(out) {
  const lines = out.trim().split('\n').reverse();
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      return JSON.parse(line);
    } catch {
      // not the summary
    }
  }
  return undefined;
}

/** Whether any measurement of a summary failed under load. */
function failedUnderLoad(value) {
  if (!value || typeof value !== 'object') return false;
  if (value.all_requests_ok === false || value.ok === false) return true;
  return Object.values(value).some(failedUnderLoad);
}

function rowsOf(name, run) {
  const summary = summaryOf(run.out);
  if (!summary) {
    const figure = `did not finish (exit ${run.code})${run.why ? `: ${run.why.slice(0, 120)}` : ''}`;
    return [{ bench: name, figure, value: null, ceiling: null, ratio: null, goal: null, met: false, comparable: false }];
  }
  const comparable = run.code === 0 && !failedUnderLoad(summary);
  if (Array.isArray(summary.figures)) return summary.figures.map((f) => ({ bench: name, ...f, comparable: comparable && f.comparable !== false }));
  // A benchmark that judges nothing (it compares ways, or reports capacity) still has its line: it ran, its figures are in its output.
  if (!summary.met || Object.keys(summary.met).length === 0)
    return [{ bench: name, figure: 'no judged figure (see its output)', value: null, ceiling: null, ratio: null, goal: null, met: true, comparable }];
  return Object.entries(summary.met).map(([figure, met]) => ({
    bench: name,
    figure,
    value: null,
    ceiling: null,
    ratio: null,
    goal: 'see its output',
    met: Boolean(met),
    comparable,
  }));
}

async function runAll({ names }) {
  const started = new Date();
  const rows = [];
  const runs = {};
  for (const name of names) {
    console.log(`\n=== ${name}`);
    const run = await runOne(name);
    runs[name] = { exit: run.code };
    rows.push(...rowsOf(name, run));
  }
  console.log('\n=== all benchmarks');
  printFigures(rows);
  const missed = rows.filter((r) => !r.met).length;
  const notComparable = rows.filter((r) => r.comparable === false).length;
  console.log(`${rows.length} figures: ${rows.length - missed} met, ${missed} missed${notComparable ? `, ${notComparable} not comparable` : ''}`);
  const result = { bench: 'all', node: process.version, started: started.toISOString(), finished: new Date().toISOString(), runs, figures: rows };
  const out = process.env.BENCH_OUT || 'bench-all.json';
  fs.writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written to ${path.resolve(out)}`);
  console.log(JSON.stringify(result));
  if (process.env.BENCH_STRICT === '1' && (missed > 0 || notComparable > 0)) process.exitCode = 3;
}

module.exports = { runAll };
