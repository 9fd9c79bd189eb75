import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TenantDb } from '../libs/tenancy';
import { TenantDirectory } from '../src/modules/tenants/tenant-directory.service';
import { freshEmail, signIn } from './support/accounts';
import { eachBackend, RunningBackend } from './support/backends';
import { createProject } from './support/projects';
import { inTenantDb } from './support/tenant-db';
import { tenantClient } from './support/tenant-client';

const folder = mkdtempSync(join(tmpdir(), 'baton-export-test-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** GET /export/sqlite with `headers` (a cookie, a token, or none): the status, and the file or the error body. */
async function download(base: string, headers: Record<string, string>, name: string) {
  const res = await fetch(`${base}/export/sqlite`, { headers });
  const bytes = Buffer.from(await res.arrayBuffer());
  const path = join(folder, `${name}.sqlite`);
  if (res.status === 200) writeFileSync(path, bytes);
  const body = res.status === 200 ? {} : (JSON.parse(bytes.toString('utf8')) as { detail?: string });
  return { status: res.status, path, disposition: res.headers.get('content-disposition'), retryAfter: res.headers.get('retry-after'), body };
}

/**
 * Row counts per ordinary table, read by the sqlite3 command-line shell. Full-text indexes
 * (virtual tables and their shadow tables) are derived from the rows and left out: Debian's
 * shell is older than the FTS5 options Baton's index uses.
 */
function countsBySqlite3(path: string): Record<string, number> {
  const sql = (query: string) => execFileSync('sqlite3', [path, query], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  const virtual = sql("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'");
  const tables = sql("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").filter(
    (t) => !virtual.some((v) => t === v || t.startsWith(`${v}_`)),
  );
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = Number(execFileSync('sqlite3', [path, `SELECT count(*) FROM "${table}"`], { encoding: 'utf8' }).trim());
  return counts;
}

/** The full SQLite export of a workspace, on each storage. */
describe.each(eachBackend())('full SQLite export on %s', (_name, backend) => {
  let run: RunningBackend;
  /** The owner's client: self-hosted the local principal, hosted a signed-in owner (cookie and Origin). */
  let owner: RunningBackend['http'];
  let ownerHeaders: Record<string, string> = {};
  let tenantId: string;

  beforeAll(async () => {
    run = await backend.start();
    if (run.testApp.config.isHosted) {
      const person = await signIn(run.testApp, freshEmail('owner'));
      owner = person.http;
      ownerHeaders = { cookie: person.cookie, origin: run.testApp.url };
      tenantId = person.tenantId;
    } else {
      owner = run.http;
    }
  });
  afterAll(async () => run?.stop());

  /** Row counts of the same tables in the workspace's own storage. */
  async function sourceCounts(tables: string[]): Promise<Record<string, number>> {
    const count = async (m: import('typeorm').EntityManager) => {
      const counts: Record<string, number> = {};
      for (const table of tables) counts[table] = Number((await m.query(`SELECT count(*) AS n FROM "${table}"`))[0].n);
      return counts;
    };
    if (!run.testApp.config.isHosted) return inTenantDb(run.testApp, undefined, count, 'read');
    return run.testApp.app.get(TenantDirectory).asTenant(tenantId, () => run.testApp.app.get(TenantDb).read(count));
  }

  test('the owner gets a SQLite file with the same tables and rows as the workspace', async () => {
    const projectId = await createProject(owner, 'exported');
    for (let i = 0; i < 12; i++) expect((await owner.post(`/projects/${projectId}/sprint-items`, { title: `export item ${i}`, version: 'v1', force: true })).status).toBe(201);
    expect((await owner.post(`/projects/${projectId}/notes`, { title: 'a note to export', body: 'kept' })).status).toBe(201);
    const file = await download(run.testApp.url, ownerHeaders, 'owner');
    expect(file.status).toBe(200);
    expect(file.disposition).toMatch(/attachment; filename="?baton-workspace-.*\.sqlite/);
    const counts = countsBySqlite3(file.path);
    expect(counts.sprint_items).toBeGreaterThanOrEqual(12);
    expect(counts.projects).toBeGreaterThanOrEqual(1);
    // The instance's own tables (waitlist, feedback, blog, admin audit) are not the workspace's.
    expect(Object.keys(counts).filter((t) => t.startsWith('site_') || t === 'admin_audit')).toEqual([]);
    const tables = Object.keys(counts).filter((t) => t !== 'baton_migrations');
    expect(counts).toMatchObject(await sourceCounts(tables));
    const copy = new Database(file.path, { readonly: true });
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      const titles = copy.prepare('SELECT title FROM sprint_items WHERE project_id = ? ORDER BY title').pluck().all(projectId);
      expect(titles).toContain('export item 11');
      const created = copy.prepare('SELECT created_at FROM projects WHERE id = ?').pluck().get(projectId) as string;
      expect(created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/);
      // The full-text index answers in the file as it does in a self-hosted Baton.
      const indexed = copy.prepare('SELECT count(*) FROM search_fts WHERE search_fts MATCH ?').pluck().get('export') as number;
      expect(indexed).toBeGreaterThan(0);
    } finally {
      copy.close();
    }
  });

  test('bad input: the route takes no parameters it would act on, and other methods are not routes', async () => {
    expect((await owner.post('/export/sqlite', {})).status).toBe(404);
    expect((await owner.delete('/export/sqlite')).status).toBe(404);
  });

  test('hosted: an API token of the workspace is refused 403, and another workspace exports only its own data', async () => {
    if (!run.testApp.config.isHosted) return;
    const refused = await download(run.testApp.url, { authorization: `Bearer ${run.token}` }, 'token');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/owner/);
    const other = await signIn(run.testApp, freshEmail('other'));
    const mine = await createProject(owner, 'only-mine');
    const theirs = await download(run.testApp.url, { cookie: other.cookie }, 'other');
    expect(theirs.status).toBe(200);
    const copy = new Database(theirs.path, { readonly: true });
    try {
      expect(copy.prepare('SELECT count(*) FROM projects WHERE id = ?').pluck().get(mine)).toBe(0);
    } finally {
      copy.close();
    }
    const b = await tenantClient(run.testApp, 'tenant-b');
    expect((await b.http.get('/export/sqlite')).status).toBe(403);
  });

  test('rate-limited: past five exports an hour the workspace is answered 429 with Retry-After', async () => {
    let last = 0;
    let retryAfter: string | null = null;
    for (let i = 0; i < 6 && last !== 429; i++) {
      const res = await download(run.testApp.url, ownerHeaders, `limit-${i}`);
      last = res.status;
      retryAfter = res.retryAfter;
      if (last === 429) expect(res.body.detail).toMatch(/too many SQLite exports/);
    }
    expect(last).toBe(429);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });
});
