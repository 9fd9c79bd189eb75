'use strict';
/**
 * Creates and drops prepared SQLite statements under forced garbage collection, the pattern that
 * made native addons built on node::ObjectWrap abort on Node 24.19+ ("Assertion failed: (env) !=
 * nullptr" while the collector freed a statement). Run with --expose-gc:
 *
 *   node --expose-gc test/support/sqlite-gc-soak.js [statements] [worker statements]
 *
 * The main thread prepares `statements` statements (default 1,000,000), runs each once and drops
 * it, forcing a full collection every 10,000; a worker thread then does the same with
 * `worker statements` (default 100,000) and exits with statements still waiting to be collected,
 * so they are freed while its environment is torn down. Prints one JSON line with the counts.
 */
const { Worker, isMainThread, workerData, parentPort } = require('node:worker_threads');
const Database = require('better-sqlite3');

function soak(count) {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, title TEXT NOT NULL)');
  db.prepare('INSERT INTO items (title) VALUES (?)').run('first');
  let rows = 0;
  for (let i = 0; i < count; i++) {
    // A new statement object each time: the SQL differs, so nothing is shared or cached.
    const statement = db.prepare(`SELECT id, ${i} AS n FROM items WHERE id = ?`);
    rows += statement.all(1).length;
    if (i % 10_000 === 9_999) global.gc();
  }
  global.gc();
  return rows;
}

if (isMainThread) {
  const statements = Number(process.argv[2] ?? 1_000_000);
  const workerStatements = Number(process.argv[3] ?? 100_000);
  const rows = soak(statements);
  // --expose-gc is a V8 flag of the whole process: the worker has global.gc too.
  const worker = new Worker(__filename, { workerData: workerStatements });
  worker.once('message', (workerRows) => {
    worker.once('exit', (code) => {
      global.gc();
      process.stdout.write(`${JSON.stringify({ node: process.version, statements, rows, worker_statements: workerStatements, worker_rows: workerRows, worker_exit: code })}\n`);
    });
  });
  worker.once('error', (error) => {
    process.stderr.write(`worker failed: ${error.stack}\n`);
    process.exit(1);
  });
} else {
  const rows = soak(workerData);
  // Leave garbage behind: these statements are freed when the worker's environment goes away.
  const db = new Database(':memory:');
  for (let i = 0; i < 1_000; i++) db.prepare(`SELECT ${i}`).get();
  parentPort.postMessage(rows);
}
