import { freshEmail, signIn } from './support/accounts';
import { eachBackend, RunningBackend } from './support/backends';
import { dashboardSocket } from './support/dashboard-socket';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';
import { sleep, waitUntil } from './support/wait';

/** The live events the knowledge, profile and settings views follow: published once a change is committed, never for a refused one, to the tenant's own dashboards only. */
describe.each(eachBackend())('knowledge and settings events on %s', (name, backend) => {
  let running: RunningBackend;
  beforeAll(async () => {
    running = await backend.start();
  });
  afterAll(() => running?.stop());

  test('every kind of knowledge change, by REST or MCP, publishes knowledge_changed {project_id, kind}; a refused one publishes nothing', async () => {
    const { http, testApp, token } = running;
    const projectId = await createProject(http, 'Events');
    const { ws, frames } = await dashboardSocket(testApp.url, token);
    const agent = await connectMcp(testApp.url, token, 'http', 'notes,decisions');
    try {
      const knowledge = () => frames.filter((f) => f.event === 'knowledge_changed').map((f) => f.data);
      const note = await http.post(`/projects/${projectId}/notes`, { title: 'A note' });
      expect(note.status).toBe(201);
      expect((await http.patch(`/projects/${projectId}/notes/${note.body.id}`, { body: 'more' })).status).toBe(200);
      expect((await http.delete(`/projects/${projectId}/notes/${note.body.id}`)).status).toBe(204);
      expect((await http.post(`/projects/${projectId}/insights`, { title: 'An insight' })).status).toBe(201);
      expect((await http.post(`/projects/${projectId}/decisions`, { title: 'Logged' })).status).toBe(201);
      expect((await callTool(agent, 'pin_decision', { project_id: projectId, title: 'Pinned' })).isError).toBe(false);
      const expected = ['notes', 'notes', 'notes', 'insights', 'decision_log', 'pinned_decisions'].map((kind) => ({ project_id: projectId, kind }));
      await waitUntil(() => knowledge().length >= expected.length, 3000, 'knowledge_changed frames');
      // Refused: a note of a title too long, a note that is not there, a pinned decision over the limit.
      expect((await http.post(`/projects/${projectId}/notes`, { title: 'x'.repeat(5000) })).status).toBe(400);
      expect((await http.delete(`/projects/${projectId}/notes/${note.body.id}`)).status).toBe(404);
      await sleep(300);
      expect(knowledge()).toEqual(expected);
    } finally {
      await agent.close();
      ws.close();
    }
  });

  test('an accepted settings change publishes project_settings_changed with the new settings; a refused one nothing', async () => {
    const { http, testApp, token } = running;
    const projectId = await createProject(http, 'Settings events');
    const { ws, frames } = await dashboardSocket(testApp.url, token);
    try {
      const changed = () => frames.filter((f) => f.event === 'project_settings_changed').map((f) => f.data);
      expect((await http.patch(`/projects/${projectId}/settings`, { executor_config: { test_min: -1 } })).status).toBe(400);
      const saved = await http.patch(`/projects/${projectId}/settings`, { max_pinned_decisions: 9 });
      expect(saved.status).toBe(200);
      await waitUntil(() => changed().length >= 1, 3000, 'project_settings_changed');
      await sleep(200);
      expect(changed()).toEqual([{ project_id: projectId, settings: saved.body }]);
    } finally {
      ws.close();
    }
  });

  test('a project made or deleted publishes project_created {project} and project_deleted {project_id}; a refused one nothing', async () => {
    const { http, testApp, token } = running;
    const { ws, frames } = await dashboardSocket(testApp.url, token);
    try {
      const made = await http.post('/projects', { name: `Evented ${Date.now()}` });
      expect(made.status).toBe(201);
      expect((await http.post('/projects', { name: made.body.name })).status).toBe(409);
      expect((await http.delete(`/projects/${made.body.id}`)).status).toBe(204);
      expect((await http.delete(`/projects/${made.body.id}`)).status).toBe(404);
      await waitUntil(() => frames.some((f) => f.event === 'project_deleted'), 3000, 'project_deleted');
      await sleep(200);
      const projectFrames = frames.filter((f) => f.event === 'project_created' || f.event === 'project_deleted');
      expect(projectFrames).toEqual([
        { event: 'project_created', data: { project: made.body } },
        { event: 'project_deleted', data: { project_id: made.body.id } },
      ]);
    } finally {
      ws.close();
    }
  });

  test('a profile layer saved or deleted publishes profile_changed {scope_type, scope_id, project_id}; a refused save nothing', async () => {
    const { http, testApp, token } = running;
    const projectId = await createProject(http, 'Profile events');
    const { ws, frames } = await dashboardSocket(testApp.url, token);
    try {
      const changed = () => frames.filter((f) => f.event === 'profile_changed').map((f) => f.data);
      expect((await http.send('PUT', `/profile-layers/project/${projectId}`, { fields: { claim_verification_mode: 'paranoid' } })).status).toBe(400);
      const saved = await http.send('PUT', `/profile-layers/project/${projectId}`, { fields: { claim_verification_mode: 'advisory' } });
      expect([saved.status, saved.text]).toEqual([200, saved.text]);
      expect((await http.delete(`/profile-layers/project/${projectId}`)).status).toBe(200);
      await waitUntil(() => changed().length >= 2, 3000, 'profile_changed');
      await sleep(200);
      const expected = { scope_type: 'project', scope_id: projectId, project_id: projectId };
      expect(changed()).toEqual([expected, expected]);
    } finally {
      ws.close();
    }
  });

  if (name.includes('hosted') && !name.includes('self')) {
    test("another tenant's dashboard hears nothing of these changes", async () => {
      const { http, testApp, token } = running;
      const other = await tenantClient(testApp, 'events-other');
      const projectId = await createProject(http, 'Private');
      const theirs = await dashboardSocket(testApp.url, other.token);
      const ours = await dashboardSocket(testApp.url, token);
      try {
        expect((await http.post(`/projects/${projectId}/notes`, { title: 'Ours' })).status).toBe(201);
        expect((await http.patch(`/projects/${projectId}/settings`, { max_pinned_decisions: 8 })).status).toBe(200);
        await waitUntil(() => ours.frames.some((f) => f.event === 'project_settings_changed'), 3000, 'our own event');
        await sleep(200);
        expect(theirs.frames.map((f) => f.event)).toEqual(['connected']);
      } finally {
        theirs.ws.close();
        ours.ws.close();
      }
    });

    test("a token made or revoked publishes tokens_changed, a member invited, changed or removed members_changed, to the workspace's dashboards only", async () => {
      const { testApp } = running;
      const owner = await signIn(testApp, freshEmail('owner'));
      const stranger = await signIn(testApp, freshEmail('stranger'));
      const ours = await dashboardSocket(testApp.url, undefined, { cookie: owner.cookie, origin: testApp.url });
      const theirs = await dashboardSocket(testApp.url, undefined, { cookie: stranger.cookie, origin: testApp.url });
      try {
        const names = () => ours.frames.map((f) => f.event).filter((e) => e === 'tokens_changed' || e === 'members_changed');
        const made = await owner.http.post('/auth/tokens', { label: 'ci' });
        expect(made.status).toBe(201);
        expect((await owner.http.post('/auth/tokens', { label: '' })).status).toBe(400);
        expect((await owner.http.delete(`/auth/tokens/${made.body.id}`)).status).toBe(204);
        const invited = await owner.http.post('/workspace/invite', { email: freshEmail('ivy') });
        expect(invited.status).toBe(201);
        expect((await owner.http.patch(`/workspace/members/${invited.body.id}`, { role: 'admin' })).status).toBe(200);
        expect((await owner.http.delete(`/workspace/members/${invited.body.id}`)).status).toBe(204);
        await waitUntil(() => names().length >= 5, 3000, 'the token and member events');
        await sleep(200);
        expect(names()).toEqual(['tokens_changed', 'tokens_changed', 'members_changed', 'members_changed', 'members_changed']);
        for (const frame of ours.frames.filter((f) => f.event === 'tokens_changed')) expect(frame.data).toEqual({});
        expect(theirs.frames.map((f) => f.event)).toEqual(['connected']);
      } finally {
        ours.ws.close();
        theirs.ws.close();
      }
    });
  }
});
