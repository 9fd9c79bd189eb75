import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backends, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';

let dirCount = 0;
/** A fresh directory with a plain name (a random suffix can look like a secret to the settings, which refuse those). */
function freshDir(): string {
  const dir = join(tmpdir(), `baton-reconcile-${process.pid}-${++dirCount}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

function gitRepo(commits: { message: string; files: string[] }[]): string {
  const dir = freshDir();
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Ada', '-c', 'user.email=ada@example.com', '-C', dir, ...args], { stdio: 'pipe' });
  git('init', '-q');
  commits.forEach((c, i) => {
    for (const f of c.files) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), `change ${i}\n`);
    }
    git('add', '-A');
    git('commit', '-q', '-m', c.message);
  });
  return dir;
}

const selfHosted = backends().filter((b) => b.name.includes('self-hosted'));

describe.each(selfHosted.map((b) => [b.name, b] as const))('GET reconcile on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;
  const dirs: string[] = [];

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
    dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
  });

  test('active items are matched to recent commits by name, title words or declared files; nothing is changed', async () => {
    const projectId = await api.project('Reconcile');
    const login = await api.item(projectId, { title: 'Fix login redirect bug' });
    const billing = await api.item(projectId, { title: 'Billing totals rounding' });
    const exporter = await api.item(projectId, { title: 'CSV export for reports', touches_resources: ['file:src/export.ts'] });
    const untouched = await api.item(projectId, { title: 'Dark mode for settings' });
    const finished = await api.item(projectId, { title: 'Login audit trail' });
    await run.http.post(`/projects/${projectId}/sprint-items/${finished.id}/complete`, {});
    const repo = gitRepo([
      { message: 'Initial commit', files: ['README.md'] },
      { message: 'Fix the login redirect bug on Safari', files: ['src/auth/login.ts'] },
      { message: `Round half-even\n\nCloses ${billing.slug}.`, files: ['src/billing/totals.ts'] },
      { message: 'Stream rows instead of buffering', files: ['src/export.ts'] },
      { message: 'Login audit trail', files: ['src/audit.ts'] },
    ]);
    dirs.push(repo);
    const saved = await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: repo } });
    expect({ status: saved.status, detail: saved.body.detail }).toEqual({ status: 200, detail: undefined });
    const res = await run.http.get(`/projects/${projectId}/reconcile`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ repo_path: repo, commits_scanned: 5, items_checked: 4 });
    const byItem = Object.fromEntries(res.body.matches.map((m: { item_id: string; commits: { subject: string; reasons: string[] }[] }) => [m.item_id, m.commits]));
    expect(Object.keys(byItem).sort()).toEqual([login.id, billing.id, exporter.id].sort());
    expect(byItem[login.id]).toEqual([expect.objectContaining({ subject: 'Fix the login redirect bug on Safari', reasons: ['message matches the title'] })]);
    expect(byItem[billing.id]).toEqual([expect.objectContaining({ subject: 'Round half-even', reasons: ['names the item', 'message matches the title'] })]);
    expect(byItem[exporter.id]).toEqual([expect.objectContaining({ subject: 'Stream rows instead of buffering', reasons: ['changed a file the item declares'] })]);
    expect(byItem[untouched.id]).toBeUndefined();
    expect((await api.get(projectId, login.id)).body.status).toBe('pending');
    expect((await run.http.get(`/projects/${projectId}/reconcile?limit=2`)).body.commits_scanned).toBe(2);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'reconcile_sprint', { project_id: projectId })).value.matches).toHaveLength(3);
    } finally {
      await client.close();
    }
  });

  test('a declared file whose name is not ASCII is matched to the commit that changed it', async () => {
    const projectId = await api.project('Reconcile Unicode');
    const item = await api.item(projectId, { title: 'Accents in the guide', touches_resources: ['file:docs/résumé-ü.md'] });
    const repo = gitRepo([
      { message: 'Initial commit', files: ['README.md'] },
      { message: 'Tidy wording', files: ['docs/résumé-ü.md'] },
    ]);
    dirs.push(repo);
    await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: repo } });
    const res = await run.http.get(`/projects/${projectId}/reconcile`);
    expect(res.status).toBe(200);
    expect(res.body.matches).toEqual([
      expect.objectContaining({ item_id: item.id, commits: [expect.objectContaining({ subject: 'Tidy wording', reasons: ['changed a file the item declares'] })] }),
    ]);
  });

  test('without a repository path, or with a path that is not a repository, reconcile says so', async () => {
    const projectId = await api.project('Reconcile Missing');
    const none = await run.http.get(`/projects/${projectId}/reconcile`);
    expect(none).toMatchObject({ status: 409, body: { code: 'NO_REPOSITORY' } });
    const plain = freshDir();
    dirs.push(plain);
    await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: plain } });
    const broken = await run.http.get(`/projects/${projectId}/reconcile`);
    expect(broken).toMatchObject({ status: 409, body: { code: 'REPOSITORY_UNAVAILABLE' } });
    expect(broken.body.detail).toMatch(/not a git repository/);
    const empty = gitRepo([]);
    dirs.push(empty);
    await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: empty } });
    expect((await run.http.get(`/projects/${projectId}/reconcile`)).body.detail).toMatch(/no commits yet/);
    expect((await run.http.get(`/projects/${projectId}/reconcile?limit=0`)).status).toBe(400);
    expect((await run.http.get(`/projects/${projectId}/reconcile?limit=x`)).body.detail).toMatch(/limit must be a whole number/);
  });
});

describe.each(hostedBackend())('GET reconcile on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a hosted instance has no local repository: 400 RECONCILE_UNAVAILABLE', async () => {
    const projectId = await sprintClient(run).project('Reconcile Hosted');
    const res = await run.http.get(`/projects/${projectId}/reconcile`);
    expect(res).toMatchObject({ status: 400, body: { code: 'RECONCILE_UNAVAILABLE' } });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'reconcile_sprint', { project_id: projectId })).structured?.code).toBe('RECONCILE_UNAVAILABLE');
    } finally {
      await client.close();
    }
  });
});
