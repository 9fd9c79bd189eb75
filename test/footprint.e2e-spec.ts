import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './support/processes';

/**
 * A self-hosted instance on SQLite without Redis never needs the Postgres or Redis clients:
 * they are not loaded, so they cost it no memory (bench/read measures the idle RSS).
 */
const BOOT_AND_LIST_MODULES = `
  require('reflect-metadata');
  const { createApp } = require('./dist/src/app.factory');
  const { loadConfig } = require('./dist/src/config/app-config');
  (async () => {
    const app = await createApp(loadConfig(process.env, process.cwd()), { logWrite: () => undefined });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address();
    const created = await fetch('http://127.0.0.1:' + port + '/projects', {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'footprint' }),
    });
    const read = await fetch('http://127.0.0.1:' + port + '/projects/' + (await created.json()).id);
    const loaded = Object.keys(require.cache)
      .map((file) => (file.match(/node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/) || [])[1])
      .filter(Boolean);
    process.stdout.write(JSON.stringify({ status: [created.status, read.status], packages: [...new Set(loaded)] }));
    await app.close();
  })().catch((error) => { console.error(error); process.exit(1); });
`;

describe('what a self-hosted SQLite instance loads', () => {
  test('serving projects on SQLite without Redis loads neither pg nor ioredis, nor pdfkit', () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-footprint-'));
    try {
      const run = spawnSync(process.execPath, ['-e', BOOT_AND_LIST_MODULES], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', SERVICE_DATA_DIR: dir, SERVICE_PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.stderr).toBe('');
      const { status, packages } = JSON.parse(run.stdout) as { status: number[]; packages: string[] };
      expect(status).toEqual([201, 200]);
      expect(packages).toEqual(expect.arrayContaining(['typeorm', 'better-sqlite3']));
      expect(packages).not.toContain('pg');
      expect(packages).not.toContain('ioredis');
      // The attribution report's PDF library (about 28 MB) is loaded at the first report only.
      expect(packages).not.toContain('pdfkit');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
