import { eachBackend, RunningBackend } from './support/backends';
import { callToolOnce } from './support/mcp-client';

/** A file is one lock whatever its spelling: locks and declared files are keyed by one canonical path. */
describe.each(eachBackend())('file lock paths on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  async function project(name: string, executorConfig?: Record<string, unknown>) {
    const id: string = (await run.http.post('/projects', { name })).body.id;
    if (executorConfig) expect((await run.http.patch(`/projects/${id}/settings`, { executor_config: executorConfig })).status).toBe(200);
    const sessions: string[] = [];
    for (const n of [1, 2]) sessions.push((await run.http.post('/sessions/register', { project_id: id, name: `s${n}` })).body.id);
    return { id, sessions };
  }

  const tool = (name: string, args: Record<string, unknown>) => callToolOnce(run.testApp.url, run.token, name, args);

  /** Two sessions claim a spelling each, at once. */
  function claimBoth(file: [string, string], sessions: string[]) {
    return Promise.all([0, 1].map((i) => tool('claim_file', { file_path: file[i], session_id: sessions[i] })));
  }

  test('two spellings of one file claimed at once by two sessions: exactly one wins, the other is told who holds it', async () => {
    for (let round = 0; round < 5; round++) {
      const { id, sessions } = await project(`Spellings ${round}`);
      const [a, b] = await claimBoth(['src/lib/a.ts', ` .\\src\\lib//../lib/./a.ts `], sessions);
      const won = [a, b].filter((r) => !r.isError);
      const lost = [a, b].filter((r) => r.isError);
      expect(won).toHaveLength(1);
      expect(won[0].value.file_path).toBe('src/lib/a.ts');
      expect(lost[0].structured).toMatchObject({ code: 'FILE_LOCKED' });
      const locks = (await run.http.get(`/projects/${id}/file-locks`)).body;
      expect(locks.map((l: { file_path: string }) => l.file_path)).toEqual(['src/lib/a.ts']);
    }
  });

  test('a path that leaves the repository, or an absolute one, is refused with how to write it; release takes any spelling', async () => {
    const { sessions } = await project('Refusals');
    for (const [file_path, message] of [
      ['../secrets.txt', /file_path must stay inside the repository/],
      ['/etc/passwd', /file_path must be relative to the repository root, for example src\/app.ts/],
      ['C:\\work\\a.ts', /file_path must be relative to the repository root/],
      ['./', /file_path must name a file/],
    ] as const) {
      const res = await tool('claim_file', { file_path, session_id: sessions[0] });
      expect(res.isError).toBe(true);
      expect(res.structured).toMatchObject({ code: 'INVALID_INPUT', detail: expect.stringMatching(message) });
    }
    expect((await tool('claim_file', { file_path: 'docs/x.md', session_id: sessions[0] })).isError).toBe(false);
    const released = await tool('release_file', { file_path: './docs//x.md', session_id: sessions[0] });
    expect(released.value).toEqual({ released: true, file_path: 'docs/x.md' });
  });

  test('an absolute path under the project repository is made relative', async () => {
    const { sessions } = await project('Rooted', { repo_path: '/srv/checkout/app' });
    const res = await tool('claim_file', { file_path: '/srv/checkout/app/src/main.ts', session_id: sessions[0] });
    expect(res.value.file_path).toBe('src/main.ts');
    const outside = await tool('claim_file', { file_path: '/srv/checkout/other/main.ts', session_id: sessions[1] });
    expect(outside.isError).toBe(true);
    expect(outside.text).toMatch(/only under the project's repository, \/srv\/checkout\/app/);
  });

  test('a case-insensitive project: two cases of one file are one lock, and declared files use the same key', async () => {
    const { id, sessions } = await project('Case blind', { case_insensitive_paths: true });
    const [a, b] = await claimBoth(['SRC/App.ts', 'src/app.TS'], sessions);
    expect([a, b].filter((r) => !r.isError)).toHaveLength(1);
    const item = await run.http.post(`/projects/${id}/sprint-items`, { version: 'v1', title: 'Touch the app', touches_resources: ['file:./Src/APP.ts', 'db:Users'] });
    expect(item.status).toBe(201);
    expect(item.body.touches_resources).toEqual(['file:src/app.ts', 'db:Users']);
    const byResource = await run.http.get(`/projects/${id}/resources/sprint-items?resource=${encodeURIComponent('file:SRC/app.ts')}`);
    expect(byResource.status).toBe(200);
    expect(byResource.body.map((i: { id: string }) => i.id)).toEqual([item.body.id]);
    // A case-sensitive project keeps the two apart.
    const sensitive = await project('Case kept');
    const [c, d] = await claimBoth(['SRC/App.ts', 'src/app.TS'], sensitive.sessions);
    expect([c, d].filter((r) => !r.isError)).toHaveLength(2);
  });

  test('a declared file that climbs out of the repository is refused on the sprint item', async () => {
    const { id } = await project('Declared');
    const res = await run.http.post(`/projects/${id}/sprint-items`, { version: 'v1', title: 'Escape', touches_resources: ['file:../../etc/passwd'] });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/touches_resources must stay inside the repository/);
  });
});
