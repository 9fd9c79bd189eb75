import { ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './processes';
import { TestDatabase } from './pg-database';

const SCRIPT = join(REPO_ROOT, 'dist/src/cli/migrate.js');

export interface MigrateRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The JSON line the command printed on stdout. */
  summary: Record<string, any>;
}

/** The environment of `npm run migrate` against a hosted control plane in `dbUrl`. */
export function migrateEnv(dbUrl: string): Record<string, string> {
  return { SERVICE_MODE: 'hosted', SERVICE_DB_URL: dbUrl, APP_URL: 'http://127.0.0.1', SESSION_SECRET: 'migrate-suite-session-secret' };
}

/**
 * Runs the built `npm run migrate` (dist/src/cli/migrate.js) as its own process, stderr not a
 * terminal; `onStderr` sees its progress as it comes.
 */
export function runMigrate(env: Record<string, string>, args: string[] = [], onStderr?: (all: string) => void): Promise<MigrateRun> {
  return runBuiltCli(SCRIPT, env, args, onStderr);
}

/**
 * Runs a built command (`dist/src/cli/<name>.js`, such as `npm run tenant:move`) as its own
 * process, stderr not a terminal; `onStderr` sees its progress as it comes, with the process (to
 * signal it).
 */
export function runBuiltCli(script: string, env: Record<string, string>, args: string[] = [], onStderr?: (all: string, child: ChildProcess) => void): Promise<MigrateRun> {
  if (!existsSync(script)) throw new Error(`build first (npx tsc -p tsconfig.build.json): the suite runs ${script}`);
  const child = spawn(process.execPath, [script, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => {
    stderr += d;
    onStderr?.(stderr, child);
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      let summary: Record<string, any> = {};
      try {
        summary = JSON.parse(stdout.trim().split('\n').pop() ?? '{}');
      } catch {
        // left empty: the test's expectations on it fail with the output beside them
      }
      resolve({ code, stdout, stderr, summary });
    });
  });
}

/** A Postgres server other than the control plane's that holds tenant schemas: its key and a way to run SQL there as a superuser. */
export interface SchemaServer {
  key: string;
  query(sql: string): Promise<unknown>;
}

/**
 * Hosted tenants as the control plane knows them, each with its role and its empty schema and
 * no migration applied: what `npm run migrate` finds after an upgrade that brought every tenant
 * migration. Made in batches of plain SQL, so a thousand take seconds (the control plane must
 * exist: run the command once first). `on`: the server holding their schemas (recorded in
 * `db_server`), the control plane's database when unset. Returns the ids in creation order.
 */
export async function createBareTenants(db: TestDatabase, count: number, { batch = 100, on }: { batch?: number; on?: SchemaServer } = {}): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const base = Date.now() - count * 1000;
  const server = on ? `'${on.key}'` : 'NULL';
  for (let start = 0; start < ids.length; start += batch) {
    const slice = ids.slice(start, start + batch);
    const statements = slice.flatMap((id) => {
      const compact = id.replace(/-/g, '');
      return [
        `CREATE ROLE "baton_t_${compact}" NOLOGIN NOINHERIT`,
        `GRANT "baton_t_${compact}" TO CURRENT_USER`,
        `CREATE SCHEMA "t_${compact}" AUTHORIZATION "baton_t_${compact}"`,
      ];
    });
    const rows = slice.map((id, i) => {
      const compact = id.replace(/-/g, '');
      const at = new Date(base + (start + i) * 1000).toISOString();
      return `('${id}', 'bare ${start + i}', 't_${compact}', 'baton_t_${compact}', NULL, ${server}, NULL, 'active', '${at}', '${at}')`;
    });
    const insert = `INSERT INTO control.tenants (id, name, schema_name, role_name, db_url_sealed, db_server, migrated_to, status, created_at, updated_at) VALUES ${rows.join(', ')}`;
    if (on) {
      await on.query(statements.join('; '));
      await db.query(insert);
    } else {
      await db.query([...statements, insert].join('; '));
    }
  }
  return ids;
}

export function schemaOf(tenantId: string): string {
  return `t_${tenantId.replace(/-/g, '')}`;
}
