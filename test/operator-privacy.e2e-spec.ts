import { randomUUID } from 'node:crypto';
import { ADMIN_PASSWORD, adminClient, adminHeaders } from './support/admin';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';

/** Operator views that are not a view of the instance's data: the snapshot is the whole database by design, the error test fails on purpose. */
const NOT_A_VIEW = new Set(['/admin/snapshot', '/admin/__error_test', '/admin/login']);

/** The operator's read-only views: every GET route under /admin, /api/admin and /control-plane without a path parameter. */
function operatorViews(run: RunningBackend): string[] {
  const express = run.testApp.app.getHttpAdapter().getInstance() as { router: { stack: { route?: { path: string; methods: Record<string, boolean> } }[] } };
  const paths = express.router.stack.flatMap((layer) => (layer.route?.methods.get ? [layer.route.path] : []));
  return [...new Set(paths)].filter((p) => /^\/(admin|api\/admin|control-plane)(\/|$)/.test(p) && !p.includes(':') && !NOT_A_VIEW.has(p)).sort();
}

/**
 * Operator staff do not read project data: the admin views and control-plane views carry counts,
 * ids and titles at most, and the log output none of a record's body, whatever the workspace did
 * (including requests that failed), at the most talkative log level.
 */
describe.each(eachBackend())('operator views and logs never carry project bodies on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD, SERVICE_LOG_LEVEL: 'debug', SERVICE_MCP_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a unique body planted in a note, task, decision, message and HITL question shows in no admin view nor log line', async () => {
    const planted = {
      note: `note-body-${randomUUID()}`,
      task: `task-body-${randomUUID()}`,
      pinned: `pinned-body-${randomUUID()}`,
      decision: `decision-body-${randomUUID()}`,
      workspaceNote: `ws-note-body-${randomUUID()}`,
      workspaceDecision: `ws-decision-body-${randomUUID()}`,
      message: `message-body-${randomUUID()}`,
      question: `hitl-question-${randomUUID()}`,
      context: `hitl-context-${randomUUID()}`,
      answer: `hitl-answer-${randomUUID()}`,
      refused: `refused-body-${randomUUID()}`,
    };
    const http = run.http;
    const p = await createProject(http, 'Private work');
    const session = (await http.post('/sessions/register', { project_id: p, name: 'worker', human_id: 'ada' })).body.id as string;
    const writes: [string, unknown][] = [
      [`/projects/${p}/notes`, { title: 'A note', body: planted.note }],
      ['/tasks', { session_id: session, project_id: p, description: planted.task, status: 'pending' }],
      [`/projects/${p}/decisions-pinned`, { title: 'A pinned decision', body: planted.pinned }],
      [`/projects/${p}/decisions`, { title: 'A logged decision', body: planted.decision }],
      ['/workspace/notes', { title: 'A workspace note', body: planted.workspaceNote }],
      ['/workspace/decisions', { title: 'A workspace decision', body: planted.workspaceDecision }],
      [`/projects/${p}/messages`, { body: planted.message, to_session_id: session }],
      [`/projects/${p}/hitl`, { question: planted.question, context: planted.context, session_id: session }],
    ];
    for (const [path, body] of writes) expect([path, (await http.post(path, body)).status]).toEqual([path, expect.any(Number)]);
    const hitl = (await http.get(`/projects/${p}/hitl`)).body[0];
    expect(hitl.question).toBe(planted.question);
    expect((await http.patch(`/hitl/${hitl.id}`, { answer: planted.answer })).status).toBe(200);
    // Reads of each, and a refused write: a failing request must not log what it was sent either.
    for (const path of [`/projects/${p}/notes`, `/projects/${p}/tasks`, `/projects/${p}/decisions-pinned`, '/workspace/notes', `/projects/${p}/context-block`]) {
      expect([path, (await http.get(path)).status]).toEqual([path, 200]);
    }
    expect((await http.post(`/projects/${p}/notes`, { title: 'Bad', body: planted.refused, surprise: true })).status).toBe(400);
    expect((await http.post(`/projects/${randomUUID()}/notes`, { title: 'Nowhere', body: planted.refused })).status).toBe(404);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const block = await client.callTool({ name: 'get_context_block', arguments: { project_id: p } });
      expect(JSON.stringify(block)).toContain(planted.pinned);
      expect((await callTool(client, 'receive_messages', { project_id: p, session_id: session })).text).toContain(planted.message);
    } finally {
      await client.close();
    }
    // Everything was stored and readable by the workspace itself.
    expect((await http.get(`/projects/${p}/notes`)).text).toContain(planted.note);

    const admin = await adminClient(run.testApp);
    // Control-plane views are read with the workspace's credentials and the admin cookie both, whichever they ask for.
    const both = run.http.withHeaders(await adminHeaders(run.testApp));
    const views = operatorViews(run);
    expect(views).toEqual(expect.arrayContaining(['/admin', '/admin/audit', '/admin/health', '/admin/stats']));
    for (const view of views) {
      const res = await (view.startsWith('/control-plane') ? both : admin).get(view);
      expect([view, res.status]).toEqual([view, 200]);
      for (const [kind, body] of Object.entries(planted)) expect([view, kind, res.text.includes(body)]).toEqual([view, kind, false]);
    }
    const logs = run.testApp.logs.join('\n');
    expect(run.testApp.logs.length).toBeGreaterThan(0);
    for (const [kind, body] of Object.entries(planted)) expect([kind, logs.includes(body)]).toEqual([kind, false]);
    // The admin's own reads of these views are not a way round it either: no project record is reachable from them.
    expect((await new Http(run.testApp.url).get('/admin/stats')).status).toBe(401);
  });
});
