import { randomUUID } from 'node:crypto';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { freshEmail, signIn } from './support/accounts';
import { eachBackend, RunningBackend } from './support/backends';
import { dashboardSocket } from './support/dashboard-socket';
import { Http } from './support/http';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

/** Live events of the views that had none: a workspace note moved into a project, the hosted defaults, a person's web sessions. */
describe.each(eachBackend())('account, workspace-note and hosted-default events on %s', (name, backend) => {
  const hosted = name.includes('hosted') && !name.includes('self-hosted');
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start({ SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS: '0' });
  });
  afterAll(() => run?.stop());

  test('a workspace note moved into a project publishes knowledge_changed {project_id, kind: notes}; a refused move publishes nothing', async () => {
    const { http, testApp, token } = run;
    const projectId = await createProject(http, 'Moved into');
    const note = await http.post('/workspace/notes', { title: 'Belongs to one project' });
    expect(note.status).toBe(201);
    const { ws, frames } = await dashboardSocket(testApp.url, token);
    try {
      const knowledge = () => frames.filter((f) => f.event === 'knowledge_changed').map((f) => f.data);
      expect((await http.post(`/workspace/notes/${note.body.id}/move`, { project_id: randomUUID() })).status).toBe(404);
      expect((await http.post(`/workspace/notes/${note.body.id}/move`, { project_id: 'not-a-uuid' })).status).toBe(400);
      expect((await http.post(`/workspace/notes/${note.body.id}/move`, { project_id: projectId })).status).toBe(200);
      expect((await http.post(`/workspace/notes/${note.body.id}/move`, { project_id: projectId })).status).toBe(404);
      await waitUntil(() => knowledge().length >= 1, 3000, 'knowledge_changed');
      await sleep(200);
      expect(knowledge()).toEqual([{ project_id: projectId, kind: 'notes' }]);
    } finally {
      ws.close();
    }
  });

  test('a hosted_default layer saved or activated publishes profile_changed {scope_type: hosted_default, project_id: null} to every workspace; a refused save nothing', async () => {
    let operatorApp: TestApp | undefined;
    let operator = run.http;
    let base = run.testApp.url;
    const tokens: (string | undefined)[] = [run.token];
    if (hosted) {
      const { tenantId } = await run.testApp.app.get(TenantResolver).resolve(`Bearer ${run.token}`);
      operatorApp = await startApp(hostedEnv(run.db!.url, { SERVICE_OPERATOR_TENANT_ID: tenantId, SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS: '0' }));
      operator = new Http(operatorApp.url, run.token);
      base = operatorApp.url;
      tokens.push((await tenantClient(run.testApp, 'defaults-other')).token);
    }
    const sockets = await Promise.all(tokens.map((t) => dashboardSocket(base, t)));
    try {
      const scope = `events-${randomUUID().slice(0, 8)}`;
      const changed = (i: number) => sockets[i].frames.filter((f) => f.event === 'profile_changed').map((f) => f.data);
      expect((await operator.send('PUT', `/profile-layers/hosted_default/${scope}`, { fields: { claim_verification_mode: 'paranoid' } })).status).toBe(400);
      expect((await operator.send('PUT', `/profile-layers/hosted_default/${scope}`, { fields: { max_pinned_decisions: 6 } })).status).toBe(200);
      expect((await operator.post(`/profile-layers/${scope}/activate`)).status).toBe(200);
      const expected = { scope_type: 'hosted_default', scope_id: scope, project_id: null };
      for (let i = 0; i < sockets.length; i++) await waitUntil(() => changed(i).length >= 2, 3000, `profile_changed on dashboard ${i}`);
      await sleep(200);
      for (let i = 0; i < sockets.length; i++) expect(changed(i)).toEqual([expected, expected]);
    } finally {
      for (const s of sockets) s.ws.close();
      await operatorApp?.close();
    }
  });

  if (hosted) {
    test("signing in or out elsewhere publishes web_sessions_changed to the person's own dashboards only", async () => {
      const { testApp } = run;
      const email = freshEmail('roamer');
      const here = await signIn(testApp, email);
      const stranger = await signIn(testApp, freshEmail('stranger'));
      const ours = await dashboardSocket(testApp.url, undefined, { cookie: here.cookie, origin: testApp.url });
      const theirs = await dashboardSocket(testApp.url, undefined, { cookie: stranger.cookie, origin: testApp.url });
      const workspaceToken = await dashboardSocket(testApp.url, run.token);
      try {
        const count = () => ours.frames.filter((f) => f.event === 'web_sessions_changed').length;
        const elsewhere = await signIn(testApp, email);
        await waitUntil(() => count() >= 1, 3000, 'web_sessions_changed on sign-in');
        const listed = await here.http.get('/account/sessions');
        const other = (listed.body as { id: string; current: boolean }[]).find((s) => !s.current);
        expect(other).toBeDefined();
        expect((await here.http.post(`/account/sessions/${randomUUID()}/revoke`)).status).toBe(404);
        expect((await here.http.post(`/account/sessions/${other!.id}/revoke`)).status).toBe(204);
        await waitUntil(() => count() >= 2, 3000, 'web_sessions_changed on revoke');
        expect((await elsewhere.http.get('/account/sessions')).status).toBe(401);
        await sleep(200);
        expect(count()).toBe(2);
        for (const frame of ours.frames.filter((f) => f.event === 'web_sessions_changed')) expect(frame.data).toEqual({});
        expect(theirs.frames.map((f) => f.event)).toEqual(['connected']);
        expect(workspaceToken.frames.map((f) => f.event)).toEqual(['connected']);
      } finally {
        ours.ws.close();
        theirs.ws.close();
        workspaceToken.ws.close();
      }
    });
  }
});
