import { randomUUID } from 'node:crypto';
import { CodehostConnections } from '../src/modules/auth-providers/codehost-connections.service';
import { freshEmail, setCodehostAccess, signIn } from './support/accounts';
import { hostedBackend, RunningBackend } from './support/backends';
import { CodehostStandIn, StandInRepo, WRITE } from './support/codehost-stand-in';
import { Http } from './support/http';
import { createProject } from './support/projects';

const LOGIN = 'octo';
const BEFORE = '# Working here\n\n<!-- baton:begin build -->\nnpm run build\n<!-- baton:end build -->\n';
const AFTER = '# Working here\n\n<!-- baton:begin build -->\nnpm ci\nnpm run build\n<!-- baton:end build -->\n';

/** Hosted: an instruction file edit goes to the connected repository through the code-host client, reviewed like a local one. */
describe.each(hostedBackend())('instruction files in the connected repository on %s', (_name, backend) => {
  const token = `ghp_${randomUUID().replace(/-/g, '')}`;
  let run: RunningBackend;
  let standIn: CodehostStandIn;
  let http: Http;

  beforeAll(async () => {
    standIn = await CodehostStandIn.start();
    standIn.tokens.set(token, LOGIN);
    run = await backend.start({ CODEHOST_API_URL: standIn.url });
    const person = await signIn(run.testApp, freshEmail('editor'));
    await run.testApp.app.get(CodehostConnections).save(person.accountId, LOGIN, ['repo'], token);
    await setCodehostAccess(person, 'write');
    http = person.http;
  });
  afterAll(async () => {
    await run?.stop();
    await standIn?.close();
  });

  async function connected(): Promise<{ p: string; repo: StandInRepo; full: string; sessionId: string }> {
    const full = `acme/instructions-${randomUUID().slice(0, 8)}`;
    const repo = standIn.addRepo(full, { [LOGIN]: WRITE }, { files: new Map([['CLAUDE.md', BEFORE]]) });
    const p = await createProject(http, 'Hosted instructions');
    expect((await http.post(`/projects/${p}/codehost/connect`, { repo: full, account_login: LOGIN })).status).toBe(200);
    const sessionId = (await http.post('/sessions/register', { project_id: p, name: 'editor' })).body.id;
    return { p, repo, full, sessionId };
  }
  const propose = (p: string, body: Record<string, unknown>) => http.send('PUT', `/projects/${p}/files/CLAUDE.md/sections/build`, { content: 'npm ci\nnpm run build', ...body });
  const writesTo = (full: string) => standIn.writes().filter((r) => r.path.startsWith(`/repos/${full}`));

  test('a reviewed edit sends nothing to the code host until approved; approval commits exactly the shown content on the default branch', async () => {
    const { p, repo, full, sessionId } = await connected();
    const pending = await propose(p, { session_id: sessionId });
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ location: 'codehost', path: 'CLAUDE.md', applied: false, review: { status: 'pending' } });
    expect(writesTo(full)).toEqual([]);
    expect((await http.patch(`/hitl/${pending.body.review.hitl_request_id}`, { answer: 'approve' })).status).toBe(200);
    expect(repo.files.get('CLAUDE.md')).toBe(AFTER);
    const [put] = writesTo(full);
    expect(put).toMatchObject({ method: 'PUT', path: `/repos/${full}/contents/CLAUDE.md`, body: { branch: 'main', sha: expect.any(String) } });
  });

  test('the file changed at the code host meanwhile: approval is a clear conflict and nothing is committed', async () => {
    const { p, repo, full, sessionId } = await connected();
    const pending = await propose(p, { session_id: sessionId });
    repo.files.set('CLAUDE.md', BEFORE.replace('# Working here', '# Changed meanwhile'));
    const refused = await http.patch(`/hitl/${pending.body.review.hitl_request_id}`, { answer: 'approve' });
    expect([refused.status, refused.body.code]).toEqual([409, 'INSTRUCTIONS_CHANGED']);
    expect(writesTo(full)).toEqual([]);
    expect(repo.files.get('CLAUDE.md')).toContain('# Changed meanwhile');
  });

  test('force commits at once and says where', async () => {
    const { p, repo } = await connected();
    const forced = await propose(p, { force: true });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ location: 'codehost', applied: true, review: null, commit: { branch: 'main', sha: expect.any(String) } });
    expect(repo.files.get('CLAUDE.md')).toBe(AFTER);
  });
});
