import { randomUUID } from 'node:crypto';
import { CodehostConnections } from '../src/modules/auth-providers/codehost-connections.service';
import { freshEmail, setCodehostAccess, signIn } from './support/accounts';
import { eachBackend, RunningBackend } from './support/backends';
import { CodehostStandIn, READ, StandInCommit } from './support/codehost-stand-in';
import { Http } from './support/http';
import { createProject } from './support/projects';

const LOGIN = 'octo';

const HISTORY: StandInCommit[] = [
  { sha: 'c5', message: 'Stream rows instead of buffering', date: '2026-03-05T10:00:00Z', files: ['src/export/csv-writer.ts'] },
  { sha: 'c4', message: 'Merge branch main', date: '2026-03-04T10:00:00Z', files: ['src/merged.ts'], parents: 2 },
  { sha: 'c3', message: 'Fix the login redirect bug on Safari\n\nSafari drops the hash.', date: '2026-03-03T10:00:00Z', files: ['src/auth/login-redirect.ts'] },
  { sha: 'c2', message: 'Tidy the billing module', date: '2026-03-02T10:00:00Z', files: ['src/billing/rounding.ts', 'docs/billing.md'] },
  { sha: 'c1', message: 'First commit', date: '2026-03-01T10:00:00Z', files: ['README.md'] },
];

/** Hosted projects (and self-hosted ones without a checkout) read their commits through the code host: reconcile and the handoff's touches_files. */
describe.each(eachBackend())('recent commits through the code host on %s', (name, backend) => {
  const hosted = name === 'postgres (hosted)';
  const token = `ghp_${randomUUID().replace(/-/g, '')}`;
  let run: RunningBackend;
  let standIn: CodehostStandIn;
  let http: Http;

  beforeAll(async () => {
    standIn = await CodehostStandIn.start();
    standIn.tokens.set(token, LOGIN);
    run = await backend.start({ CODEHOST_API_URL: standIn.url, SERVICE_MCP_RATE_LIMIT: '1000000' });
    if (hosted) {
      const person = await signIn(run.testApp, freshEmail('coder'));
      await run.testApp.app.get(CodehostConnections).save(person.accountId, LOGIN, ['repo'], token);
      await setCodehostAccess(person, 'read');
      http = person.http;
    } else {
      http = run.http;
    }
  });
  afterAll(async () => {
    await run?.stop();
    await standIn?.close();
  });

  async function connected(): Promise<{ p: string; full: string }> {
    const full = `acme/history-${randomUUID().slice(0, 8)}`;
    standIn.addRepo(full, { [LOGIN]: READ }, { commits: HISTORY });
    const p = await createProject(http, 'History');
    const res = await http.post(`/projects/${p}/codehost/connect`, hosted ? { repo: full, account_login: LOGIN } : { repo: full, token });
    expect(res.status).toBe(200);
    return { p, full };
  }
  const item = async (p: string, title: string, extra: Record<string, unknown> = {}) => {
    const res = await http.post(`/projects/${p}/sprint-items`, { version: 'v1', title, ...extra });
    expect(res.status).toBe(201);
    return res.body as { id: string; slug: string };
  };

  test('reconcile compares pending items with the connected repository’s recent commits, merges left out; nothing is written to the code host', async () => {
    const { p, full } = await connected();
    const login = await item(p, 'Fix login redirect bug on Safari');
    const exporter = await item(p, 'Faster CSV export', { touches_resources: ['file:src/export/csv-writer.ts'] });
    await item(p, 'Unrelated dark mode');
    const res = await http.get(`/projects/${p}/reconcile`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'codehost', repo_path: null, commits_scanned: 4, items_checked: 3 });
    const byItem = Object.fromEntries(res.body.matches.map((mt: { item_id: string; commits: unknown[] }) => [mt.item_id, mt.commits]));
    expect(Object.keys(byItem).sort()).toEqual([login.id, exporter.id].sort());
    expect(byItem[login.id]).toEqual([
      { sha: 'c3', subject: 'Fix the login redirect bug on Safari', committed_at: '2026-03-03T10:00:00.000Z', reasons: ['message matches the title'] },
    ]);
    expect(byItem[exporter.id]).toEqual([expect.objectContaining({ sha: 'c5', reasons: ['changed a file the item declares'] })]);
    expect(standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`))).toEqual([]);
  });

  test('generate_handoff fills touches_files from the files of the last three commits, a merge among them', async () => {
    const { p } = await connected();
    const login = await item(p, 'Login redirect on Safari');
    const billing = await item(p, 'Billing rounding');
    const handoff = await http.post(`/projects/${p}/handoff`, {});
    expect(handoff.status).toBe(201);
    expect((await http.get(`/projects/${p}/sprint-items/${login.id}`)).body.touches_files).toEqual(['src/auth/login-redirect.ts']);
    // As `git log -3 --name-only`: the merge c4 is one of the three and changes no file, so c2 (the fourth) does not count.
    expect((await http.get(`/projects/${p}/sprint-items/${billing.id}`)).body.touches_files).toEqual([]);
  });

  test('without a connected repository the honest refusal stays', async () => {
    const p = await createProject(http, 'Unconnected');
    const res = await http.get(`/projects/${p}/reconcile`);
    if (hosted) expect([res.status, res.body.code]).toEqual([400, 'RECONCILE_UNAVAILABLE']);
    else expect([res.status, res.body.code]).toEqual([409, 'NO_REPOSITORY']);
    expect(res.body.detail).toEqual(expect.any(String));
    const handoff = await http.post(`/projects/${p}/handoff`, {});
    expect(handoff.status).toBe(201);
  });
});
