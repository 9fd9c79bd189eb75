import { Worker } from 'node:worker_threads';

/**
 * The online backup runs in a worker thread, in one step: one read transaction on its own
 * connection, so the copy is one consistent moment. In WAL mode that reader never blocks the
 * app's writer, and being off the main thread it never holds up the event loop. (Done in many
 * small steps on the main thread instead, a backup restarts each time another connection writes,
 * and never ends under a steady writer.) Tables not in `keep` are dropped from the copy.
 */
const WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
(async () => {
  const source = new Database(workerData.source, { readonly: true, fileMustExist: true });
  try {
    await source.backup(workerData.target, { progress: () => 1 << 30 });
  } finally {
    source.close();
  }
  const copy = new Database(workerData.target);
  try {
    copy.pragma('journal_mode = DELETE');
    const tables = copy.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all();
    const keep = new Set(workerData.keep);
    for (const table of tables) if (!keep.has(table)) copy.exec('DROP TABLE "' + table.replace(/"/g, '""') + '"');
  } finally {
    copy.close();
  }
  parentPort.postMessage('done');
})().catch((error) => { throw error; });
`;

/** Copies the SQLite file at `source` to `target` through SQLite's online backup, keeping only the tables named in `keep`. */
export function backupSqlite(source: string, target: string, keep: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), source, target, keep } });
    let done = false;
    worker.once('message', () => (done = true));
    worker.once('error', reject);
    worker.once('exit', (code) => (done ? resolve() : reject(new Error(`the SQLite backup worker stopped (exit code ${code})`))));
  });
}
