'use strict';
/** Many hosted tenants made fast, the way an upgrade finds them, for the benchmarks that need them. */
const { spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const path = require('node:path');
const { childEnv } = require('./cold-start');

const seconds = (since) => Math.round(Number(process.hrtime.bigint() - since) / 1e6) / 1e3;

/** Runs the built `npm run migrate` (dist/src/cli/migrate.js) with `args`; resolves with its exit code, seconds and JSON summary. */
function runMigrate(root, env, args) {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [path.join(root, 'dist', 'src', 'cli', 'migrate.js'), ...args], { cwd: root, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      let summary = {};
      try {
        summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
      } catch {
        // left empty: the caller reports the exit status with stderr
      }
      resolve({ code, seconds: seconds(started), summary, stderr });
    });
  });
}

/**
 * Hosted tenants as the control plane knows them, each with its role and empty schema and no
 * migration applied (what `npm run migrate` finds after an upgrade that brought every tenant
 * migration), in batches of plain SQL, as test/support/migrate-cli.ts makes them.
 */
async function addBareTenants(pg, count, batch = 100) {
  const base = Date.now() - count * 1000;
  for (let start = 0; start < count; start += batch) {
    const ids = Array.from({ length: Math.min(batch, count - start) }, () => randomUUID().replace(/-/g, ''));
    const statements = ids.flatMap((c) => [
      `CREATE ROLE "baton_t_${c}" NOLOGIN NOINHERIT`,
      `GRANT "baton_t_${c}" TO CURRENT_USER`,
      `CREATE SCHEMA "t_${c}" AUTHORIZATION "baton_t_${c}"`,
    ]);
    const rows = ids.map((c, i) => {
      const id = `${c.slice(0, 8)}-${c.slice(8, 12)}-${c.slice(12, 16)}-${c.slice(16, 20)}-${c.slice(20)}`;
      const at = new Date(base + (start + i) * 1000).toISOString();
      return `('${id}', 'capacity ${start + i}', 't_${c}', 'baton_t_${c}', NULL, NULL, 'active', '${at}', '${at}')`;
    });
    statements.push(`INSERT INTO control.tenants (id, name, schema_name, role_name, db_url_sealed, migrated_to, status, created_at, updated_at) VALUES ${rows.join(', ')}`);
    await pg.query(statements.join('; '));
  }
}

module.exports = { addBareTenants, runMigrate };
