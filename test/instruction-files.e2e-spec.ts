import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostedBackend, RunningBackend, selfHostedBackends } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';

const BEFORE = '# Working here\n\nPeople wrote this.\n\n<!-- baton:begin build -->\nnpm run build\n<!-- baton:end build -->\n\nAnd this.\n';
const AFTER = '# Working here\n\nPeople wrote this.\n\n<!-- baton:begin build -->\nnpm ci\nnpm run build\n<!-- baton:end build -->\n\nAnd this.\n';

describe.each(selfHostedBackends())('instruction files in the repository on %s', (_name, backend) => {
  let run: RunningBackend;
  let repo: string;
  let outside: string;
  let projectId: string;
  let sessionId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(() => run?.stop());
  beforeEach(async () => {
    repo = mkdtempSync(join(tmpdir(), 'baton-repo-'));
    outside = mkdtempSync(join(tmpdir(), 'baton-outside-'));
    writeFileSync(join(repo, 'CLAUDE.md'), BEFORE);
    projectId = await createProject(run.http, 'Checkout');
    expect((await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: repo } })).status).toBe(200);
    sessionId = (await run.http.post('/sessions/register', { project_id: projectId, name: 'editor' })).body.id;
  });
  afterEach(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const propose = (body: Record<string, unknown> = {}, filename = 'CLAUDE.md') =>
    run.http.send('PUT', `/projects/${projectId}/files/${filename}/sections/build`, { content: 'npm ci\nnpm run build', session_id: sessionId, ...body });
  const onDisk = (name = 'CLAUDE.md') => readFileSync(join(repo, name), 'utf8');

  test('an edit pending review leaves the committed file untouched; approving applies exactly the diff that was shown', async () => {
    const pending = await propose();
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ location: 'repository', path: 'CLAUDE.md', section: 'build', applied: false, review: { status: 'pending' } });
    expect(pending.body.diff).toBe('--- a/CLAUDE.md\n+++ b/CLAUDE.md\n@@ -6,0 +6,1 @@\n+npm ci');
    expect(onDisk()).toBe(BEFORE);
    const request = (await run.http.get(`/hitl/${pending.body.review.hitl_request_id}`)).body;
    expect(request).toMatchObject({ status: 'pending', session_id: sessionId, context: pending.body.diff });
    expect(request.question).toContain('CLAUDE.md');

    const approved = await run.http.patch(`/hitl/${request.id}`, { answer: 'Approve' });
    expect([approved.status, approved.body.status]).toEqual([200, 'answered']);
    expect(onDisk()).toBe(AFTER);
    // Written through a temporary file and a rename: nothing else is left in the checkout.
    expect(readdirSync(repo)).toEqual(['CLAUDE.md']);
  });

  test('a file changed after the edit was shown: approving is a clear conflict, nothing is written, the request is closed', async () => {
    const pending = await propose();
    const changed = BEFORE.replace('People wrote this.', 'Someone changed this meanwhile.');
    writeFileSync(join(repo, 'CLAUDE.md'), changed);
    const refused = await run.http.patch(`/hitl/${pending.body.review.hitl_request_id}`, { answer: 'approve' });
    expect([refused.status, refused.body.code]).toEqual([409, 'INSTRUCTIONS_CHANGED']);
    expect(refused.body.detail).toBe('CLAUDE.md changed since this edit was proposed: nothing was written; propose the edit again against the current file');
    expect(onDisk()).toBe(changed);
    const request = (await run.http.get(`/hitl/${pending.body.review.hitl_request_id}`)).body;
    expect(request).toMatchObject({ status: 'dismissed', answer: expect.stringContaining('Not applied') });
  });

  test('dismissing, or an answer that does not approve, writes nothing', async () => {
    const first = await propose();
    expect((await run.http.patch(`/hitl/${first.body.review.hitl_request_id}`, { action: 'dismiss' })).status).toBe(200);
    const second = await propose();
    expect((await run.http.patch(`/hitl/${second.body.review.hitl_request_id}`, { answer: 'no, keep the old command' })).status).toBe(200);
    expect(onDisk()).toBe(BEFORE);
  });

  test('a symlink that leaves repo_path is refused, with or without force, and the file it points to is untouched', async () => {
    const target = join(outside, 'secret.md');
    writeFileSync(target, BEFORE);
    rmSync(join(repo, 'CLAUDE.md'));
    symlinkSync(target, join(repo, 'CLAUDE.md'));
    for (const body of [{}, { force: true }]) {
      const refused = await propose(body);
      expect([refused.status, refused.body.code]).toEqual([403, 'OUTSIDE_REPOSITORY']);
      expect(refused.body.detail).toContain('CLAUDE.md leads outside the repository');
    }
    expect(readFileSync(target, 'utf8')).toBe(BEFORE);
    // A dangling symlink is refused too, never created through.
    const gone = join(outside, 'gone.md');
    symlinkSync(gone, join(repo, 'AGENTS.md'));
    const dangling = await run.http.send('PUT', `/projects/${projectId}/files/AGENTS.md/sections/build`, { content: 'x', create: true, force: true });
    expect([dangling.status, dangling.body.code]).toEqual([403, 'OUTSIDE_REPOSITORY']);
    expect(existsSync(gone)).toBe(false);
  });

  test('force writes at once; the spelling on disk wins; a missing file needs create; a review needs a session; README stays refused', async () => {
    const forced = await propose({ force: true, session_id: undefined }, 'claude.md');
    expect([forced.status, forced.body.applied, forced.body.path, forced.body.review]).toEqual([200, true, 'CLAUDE.md', null]);
    expect(onDisk()).toBe(AFTER);
    const again = await propose({}, 'CLAUDE.md');
    expect([again.status, again.body.applied]).toEqual([200, true]);

    const noSession = await run.http.send('PUT', `/projects/${projectId}/files/CLAUDE.md/sections/build`, { content: 'other' });
    expect([noSession.status, noSession.body.code]).toEqual([400, 'REVIEW_SESSION_REQUIRED']);
    const missing = await propose({}, 'AGENTS.md');
    expect([missing.status, missing.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const created = await propose({ create: true }, 'AGENTS.md');
    expect([created.status, created.body.file_created, existsSync(join(repo, 'AGENTS.md'))]).toEqual([202, true, false]);
    expect((await run.http.patch(`/hitl/${created.body.review.hitl_request_id}`, { answer: 'yes' })).status).toBe(200);
    expect(onDisk('AGENTS.md')).toBe('<!-- baton:begin build -->\nnpm ci\nnpm run build\n<!-- baton:end build -->\n');
    expect((await propose({ force: true }, 'README.md')).status).toBe(403);
    // Other markdown files stay in Baton's database.
    const notes = await propose({ create: true }, 'notes.md');
    expect([notes.status, notes.body.location]).toEqual([200, 'baton']);
    expect(existsSync(join(repo, 'notes.md'))).toBe(false);
  });

  test('update_md_section over MCP proposes the same review', async () => {
    const mcp = await connectMcp(run.testApp.url, run.token);
    try {
      const result = await callTool(mcp, 'update_md_section', {
        project_id: projectId,
        filename: 'CLAUDE.md',
        section: 'build',
        content: 'npm ci\nnpm run build',
        session_id: sessionId,
      });
      expect(result.isError).toBe(false);
      expect(result.value).toMatchObject({ location: 'repository', applied: false, review: { status: 'pending' } });
      expect(onDisk()).toBe(BEFORE);
      expect((await run.http.patch(`/hitl/${result.value.review.hitl_request_id}`, { answer: 'approve' })).status).toBe(200);
      expect(onDisk()).toBe(AFTER);
    } finally {
      await mcp.close();
    }
  });
});

describe.each(hostedBackend())('instruction files without a checkout on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(() => run?.stop());

  test('a hosted project keeps CLAUDE.md in Baton, as before, and the answer says so', async () => {
    const projectId = await createProject(run.http, 'Hosted');
    const res = await run.http.send('PUT', `/projects/${projectId}/files/CLAUDE.md/sections/build`, { content: 'npm test', create: true });
    expect([res.status, res.body.location, res.body.file.filename]).toEqual([200, 'baton', 'CLAUDE.md']);
  });
});
