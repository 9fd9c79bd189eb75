import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * better-sqlite3 on the Node release Baton runs on survives a million prepared statements being
 * created and collected: addons built on node::ObjectWrap against Node 24.19+ headers aborted the
 * process when the garbage collector freed a statement. better-sqlite3 13 is a Node-API addon and
 * must not; an abort shows here as the SIGABRT signal instead of a clean exit.
 */
describe('SQLite under forced garbage collection', () => {
  test('a million statements prepared, run and collected (and 100,000 more in a worker thread that exits) end in a clean exit', () => {
    const soak = spawnSync(process.execPath, ['--expose-gc', join(__dirname, 'support', 'sqlite-gc-soak.js'), '1000000', '100000'], {
      encoding: 'utf8',
      timeout: 170_000,
    });
    expect({ signal: soak.signal, status: soak.status, stderr: soak.stderr }).toEqual({ signal: null, status: 0, stderr: '' });
    expect(JSON.parse(soak.stdout)).toEqual({
      node: expect.stringMatching(/^v24\./),
      statements: 1_000_000,
      rows: 1_000_000,
      worker_statements: 100_000,
      worker_rows: 100_000,
      worker_exit: 0,
    });
  }, 180_000);
});
