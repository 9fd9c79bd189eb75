import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, QueryRunner } from 'typeorm';
import { Dialect, runMigrations } from '../libs/tenancy';
import { TENANT_MIGRATIONS } from '../migrations/tenant';
import { HandoffTokenHashes1732300000000 } from '../migrations/tenant/1732300000000-handoff-token-hashes';
import { TestDatabase } from './support/pg-database';
import { describePostgres } from './support/suites';

const BEFORE = TENANT_MIGRATIONS.slice(0, TENANT_MIGRATIONS.indexOf(HandoffTokenHashes1732300000000));
const TOKEN = 'ho_abcdefghijklmnop';

/** A handoff written before tokens were hashed: the plain token in its column and in its content, twice. */
async function insertOldHandoff(runner: QueryRunner, dialect: Dialect): Promise<string> {
  const projectId = randomUUID();
  const handoffId = randomUUID();
  const now = dialect === 'postgres' ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
  const p = (n: number) => Array.from({ length: n }, (_, i) => (dialect === 'postgres' ? `$${i + 1}` : '?')).join(', ');
  await runner.query(`INSERT INTO projects (id, name, name_key, created_at, updated_at) VALUES (${p(5)})`, [projectId, 'old', 'old', now, now]);
  const content = `---\ntoken: ${TOKEN}\n---\nCall start_session with handoff_token ${TOKEN}: it answers your session_id.\n`;
  await runner.query(
    `INSERT INTO handoffs (id, project_id, mode, token, file_name, content, body_sha256, board_sha256, tools_sha256, bytes, created_at, expires_at) VALUES (${p(12)})`,
    [handoffId, projectId, 'goal', TOKEN, 'old.md', content, 'a', 'b', 'c', content.length, now, now],
  );
  return handoffId;
}

async function migrateAnOldHandoff(ds: DataSource, dialect: Dialect, schema: string | null) {
  const runner = ds.createQueryRunner();
  try {
    await runMigrations(runner, BEFORE, { dialect, schema, role: null });
    if (schema) await runner.query(`SET search_path TO ${schema}`);
    const id = await insertOldHandoff(runner, dialect);
    // This migration first, then any that came after it.
    expect((await runMigrations(runner, TENANT_MIGRATIONS, { dialect, schema, role: null }))[0]).toBe('HandoffTokenHashes1732300000000');
    const [row] = await runner.query(`SELECT * FROM handoffs WHERE id = ${dialect === 'postgres' ? '$1' : '?'}`, [id]);
    expect(row.token).toBeUndefined();
    expect(row.token_sha256).toBe(createHash('sha256').update(TOKEN).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(TOKEN);
    expect(row.content).toBe('---\ntoken: ho_****************\n---\nCall start_session with handoff_token ho_****************: it answers your session_id.\n');
  } finally {
    await runner.release();
  }
}

describe('the handoff token migration replaces stored tokens by their SHA-256', () => {
  test('on SQLite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-ho-mig-'));
    const ds = await new DataSource({ type: 'better-sqlite3', database: join(dir, 't.db') }).initialize();
    try {
      await migrateAnOldHandoff(ds, 'sqlite', null);
    } finally {
      await ds.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describePostgres('the handoff token migration replaces stored tokens by their SHA-256, on Postgres', () => {
  test('on Postgres', async () => {
    const db = await TestDatabase.create();
    const ds = await new DataSource({ type: 'postgres', url: db.url, extra: { max: 1 } }).initialize();
    try {
      await ds.query('CREATE SCHEMA t_hashmig');
      await migrateAnOldHandoff(ds, 'postgres', 't_hashmig');
    } finally {
      await ds.destroy();
      await db.drop();
    }
  });
});
