import { randomUUID } from 'node:crypto';
import { StartSessionExtras } from '../src/common/extensions/start-session-extras';
import { eachBackend, RunningBackend } from './support/backends';
import { HttpResult } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { profileClient, PROFILE_TEST_ENV } from './support/profile-client';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())('profile layers on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;

  beforeAll(async () => {
    run = await backend.start(PROFILE_TEST_ENV);
    projectId = (await run.http.post('/projects', { name: 'Profiles' })).body.id;
  });
  afterAll(async () => {
    await run?.stop();
  });

  const { put, save, effective, newProject, newSession, clearWorkspace } = profileClient(() => ({ run, projectId }));

  describe('a project with no layer rows', () => {
    test('resolves to the legacy defaults without error: executable, not degraded, every field from default', async () => {
      const profile = await effective();
      expect(profile).toMatchObject({
        project_id: projectId,
        executable: true,
        degraded: false,
        degraded_reasons: [],
        restart_required: false,
        restart_report: { tunnel: 'none', connector: 'none', capability: 'none', general: 'none' },
        layers: [],
        hosted_default: { scope_id: 'global', selected_by: 'default', status: null, applied: false },
      });
      expect(profile.generation_key).toMatch(/^[0-9a-f]{64}$/);
      expect(profile.fields.hitl_auto_answer).toEqual({ value: false, source: 'default' });
      expect(profile.fields.max_pinned_decisions).toEqual({ value: 20, source: 'default' });
      expect(profile.fields.claim_verification_mode).toEqual({ value: 'off', source: 'default' });
      expect(profile.fields['executor_config.repo_path']).toEqual({ value: null, source: 'default' });
      expect(profile.fields.tool_priority_map).toEqual({ value: {}, source: 'default' });

      const client = await connectMcp(run.testApp.url, run.token);
      try {
        const tool = await callTool(client, 'get_effective_profile', { project_id: projectId });
        expect(tool.isError).toBe(false);
        expect(tool.value).toMatchObject({ executable: true, degraded: false, generation_key: profile.generation_key });
      } finally {
        await client.close();
      }
    });

    test('the profile extra of start_session and handoffs carries executable true, degraded false', async () => {
      const sessionId = await newSession();
      const extras = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(StartSessionExtras).collect(m, { projectId, sessionId, humanId: 'ada' }));
      expect(extras.profile).toEqual({ executable: true, degraded: false, generation_key: expect.stringMatching(/^[0-9a-f]{64}$/), restart_required: false });
      const withoutSession = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(StartSessionExtras).collect(m, { projectId }));
      expect(withoutSession.profile).toMatchObject({ executable: true, degraded: false, restart_required: false });
    });

    test('start_session answers with profile executable true and degraded false', async () => {
      const started = await run.http.post(`/projects/${projectId}/start-session`, { name: 'fresh' });
      expect(started.status).toBeLessThan(300);
      expect(started.body.profile).toMatchObject({ executable: true, degraded: false, restart_required: false });
      expect(started.body.profile.generation_key).toMatch(/^[0-9a-f]{64}$/);
      const client = await connectMcp(run.testApp.url, run.token);
      try {
        const tool = await callTool(client, 'start_session', { project_id: projectId });
        expect(tool.isError).toBe(false);
        const answer = typeof tool.value === 'string' ? JSON.parse(tool.value) : tool.value;
        expect(answer.profile).toMatchObject({ executable: true, degraded: false });
      } finally {
        await client.close();
      }
    });

    test('generate_handoff puts the profile in the front matter', async () => {
      const handoff = await run.http.post(`/projects/${projectId}/handoff`, {});
      expect(handoff.status).toBeLessThan(300);
      const line = (handoff.body.content as string).split('\n').find((l) => l.startsWith('profile: '));
      expect(line).toBeDefined();
      expect(JSON.parse((line as string).slice('profile: '.length))).toMatchObject({ executable: true, degraded: false, restart_required: false });
    });
  });

  test('a field set at workspace and overridden at session resolves to the session value and names session; clearing the session layer falls back', async () => {
    const sessionId = await newSession();
    await save('workspace', 'singleton', { fields: { execution_mode: 'autonomous', tool_priority_map: { 'github:*': 80 } } });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const saved = await callTool(client, 'save_profile_layer', {
        scope_type: 'session',
        scope_id: sessionId,
        fields: { execution_mode: 'interactive', tool_priority_map: { 'fs:read_file': 90 } },
      });
      expect(saved.isError).toBe(false);
      expect(saved.value).toMatchObject({ scope_type: 'session', scope_id: sessionId, revision: 1, changed: true });

      const withSession = await effective(projectId, `?session_id=${sessionId}`);
      expect(withSession.fields.execution_mode).toEqual({ value: 'interactive', source: 'session' });
      expect(withSession.fields.tool_priority_map).toEqual({ value: { 'fs:read_file': 90 }, source: 'session' });
      expect(withSession.user_id).toBe('ada');
      expect((await effective()).fields.execution_mode).toEqual({ value: 'autonomous', source: 'workspace' });

      const reset = await callTool(client, 'reset_profile_layer', { scope_type: 'session', scope_id: sessionId });
      expect(reset.value).toEqual({ deleted: true, scope_type: 'session', scope_id: sessionId, revision: 1 });
      const fallen = await effective(projectId, `?session_id=${sessionId}`);
      expect(fallen.fields.execution_mode).toEqual({ value: 'autonomous', source: 'workspace' });
      expect(fallen.fields.tool_priority_map).toEqual({ value: { 'github:*': 80 }, source: 'workspace' });
      expect((await run.http.get(`/profile-layers/session/${sessionId}`)).status).toBe(404);
    } finally {
      await client.close();
      await clearWorkspace();
    }
  });

  test('every scope takes part in order: hosted_default < workspace < user < project < session, field by field', async () => {
    const project = await newProject('Five scopes');
    const sessionId = await newSession(project, 'grace');
    await save('workspace', 'singleton', { fields: { max_pinned_decisions: 30, code_intel_enabled: false, executor_config: { test_command: 'npm test' } } });
    await save('user', 'grace', { fields: { max_pinned_decisions: 40, auto_worktrees: true } });
    expect((await run.http.patch(`/projects/${project}/settings`, { max_pinned_decisions: 50 })).status).toBe(200);
    await save('project', project, { fields: { capability_manifest_ref: '.baton/capabilities.json' } });
    await save('session', sessionId, { fields: { executor_config: { max_parallel: 4 } }, reset_fields: ['code_intel_enabled'] });
    try {
      const profile = await effective(project, `?session_id=${sessionId}`);
      expect(profile.fields).toMatchObject({
        max_pinned_decisions: { value: 50, source: 'project' },
        auto_worktrees: { value: true, source: 'user' },
        code_intel_enabled: { value: true, source: 'session' },
        'executor_config.test_command': { value: 'npm test', source: 'workspace' },
        'executor_config.max_parallel': { value: 4, source: 'session' },
        capability_manifest_ref: { value: '.baton/capabilities.json', source: 'project' },
        execution_mode: { value: 'autonomous', source: 'default' },
      });
      expect(profile.layers.map((l: { scope_type: string }) => l.scope_type)).toEqual(['workspace', 'user', 'project_settings', 'project', 'session']);
      // Without the session, grace's layer applies only when asked for.
      expect((await effective(project)).fields.max_pinned_decisions).toEqual({ value: 50, source: 'project' });
      expect((await effective(project, '?user_id=grace')).fields.auto_worktrees).toEqual({ value: true, source: 'user' });
      expect((await effective(project)).fields.auto_worktrees).toEqual({ value: false, source: 'default' });
      expect((await run.http.get(`/projects/${project}/effective-profile?session_id=${sessionId}&user_id=someone-else`)).status).toBe(400);
    } finally {
      await clearWorkspace();
      await run.http.delete('/profile-layers/user/grace');
    }
  });

  test('saving replaces the layer wholesale; an identical re-save keeps the revision', async () => {
    const first = await save('user', 'wholesale', { fields: { max_pinned_decisions: 12, auto_worktrees: true } });
    expect(first).toMatchObject({ revision: 1, status: null, fields: { max_pinned_decisions: 12, auto_worktrees: true }, changed: true });
    const second = await save('user', 'wholesale', { fields: { max_pinned_decisions: 13 } });
    expect(second.revision).toBe(2);
    expect(second.fields).toEqual({ max_pinned_decisions: 13 });
    const again = await save('user', 'wholesale', { fields: { max_pinned_decisions: 13 } });
    expect(again).toMatchObject({ revision: 2, changed: false });
    const stored = (await run.http.get('/profile-layers/user/wholesale')).body;
    expect(stored).toMatchObject({ scope_type: 'user', scope_id: 'wholesale', revision: 2, fields: { max_pinned_decisions: 13 }, reset_fields: [] });
    expect(stored.fields.auto_worktrees).toBeUndefined();
  });

  test('two concurrent saves with the same expected_revision: exactly one succeeds, the other gets STALE_REVISION (409)', async () => {
    for (let round = 0; round < 4; round++) {
      const scopeId = `racer-${round}`;
      // Creating: both expect 0.
      const created = await Promise.all([
        put(`/profile-layers/user/${scopeId}`, { fields: { max_pinned_decisions: 10 }, expected_revision: 0 }),
        put(`/profile-layers/user/${scopeId}`, { fields: { max_pinned_decisions: 11 }, expected_revision: 0 }),
      ]);
      expectOneWinner(created, 0);
      // Updating: both expect 1.
      const updated = await Promise.all([
        put(`/profile-layers/user/${scopeId}`, { fields: { max_pinned_decisions: 20 }, expected_revision: 1 }),
        put(`/profile-layers/user/${scopeId}`, { fields: { max_pinned_decisions: 21 }, expected_revision: 1 }),
      ]);
      const winner = expectOneWinner(updated, 1);
      expect((await run.http.get(`/profile-layers/user/${scopeId}`)).body).toMatchObject({ revision: 2, fields: winner.body.fields });
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const stale = await callTool(client, 'save_profile_layer', { scope_type: 'user', scope_id: 'racer-0', fields: {}, expected_revision: 1 });
      expect(stale.isError).toBe(true);
      expect(stale.structured).toMatchObject({ code: 'STALE_REVISION', expected_revision: 1, current_revision: 2 });
      expect(stale.text).toMatch(/stale/);
      const fresh = await callTool(client, 'save_profile_layer', { scope_type: 'user', scope_id: 'racer-0', fields: {}, expected_revision: 2 });
      expect(fresh.value).toMatchObject({ revision: 3, fields: {} });
    } finally {
      await client.close();
    }
  });

  function expectOneWinner(results: HttpResult[], expected: number) {
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409) as HttpResult;
    expect(loser.body).toMatchObject({ code: 'STALE_REVISION', expected_revision: expected, current_revision: expected + 1 });
    expect(typeof loser.body.detail).toBe('string');
    return results.find((r) => r.status === 200) as HttpResult;
  }

  test('restart: a session is told when a field it started with changes and what that needs', async () => {
    const project = await newProject('Restart');
    const started = await run.http.post(`/projects/${project}/start-session`, { name: 'worker-1' });
    const sessionId = started.body.session_id as string;
    expect(started.body.profile.restart_required).toBe(false);
    await run.http.patch(`/projects/${project}/settings`, { executor_config: { repo_path: 'checkouts/app' } });
    const after = await effective(project, `?session_id=${sessionId}`);
    expect(after.restart_required).toBe(true);
    expect(after.restart_report).toEqual({ tunnel: 'none', connector: 'none', capability: 'none', general: 'restart_required' });

    const other = (await run.http.post(`/projects/${project}/start-session`, { name: 'worker-2' })).body.session_id as string;
    const saved = await save('project', project, { fields: { tool_priority_map: { 'fs:*': 5 }, capability_manifest_ref: 'manifest.json' } });
    expect(saved).toMatchObject({ restart_required: false, restart_report: { connector: 'hot_reload', capability: 'explicit_refresh_required', general: 'none' } });
    const second = await effective(project, `?session_id=${other}`);
    expect(second).toMatchObject({ restart_required: false, restart_report: { connector: 'hot_reload', capability: 'explicit_refresh_required', general: 'none' } });
    const extras = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(StartSessionExtras).collect(m, { projectId: project, sessionId }));
    expect(extras.profile).toMatchObject({ restart_required: true, generation_key: second.generation_key });

    // A session registered without start_session gets its baseline at its first resolution.
    const registered = await newSession(project);
    expect((await effective(project, `?session_id=${registered}`)).restart_required).toBe(false);
    await run.http.patch(`/projects/${project}/settings`, { executor_config: { repo_path: 'checkouts/other' } });
    expect((await effective(project, `?session_id=${registered}`)).restart_report.general).toBe('restart_required');
  });

  test('the generation key changes on every write of a layer that takes part, and only then', async () => {
    const project = await newProject('Generations');
    const k0 = (await effective(project)).generation_key;
    expect((await effective(project)).generation_key).toBe(k0);
    await save('project', project, { fields: { claim_verification_mode: 'advisory' } });
    const k1 = (await effective(project)).generation_key;
    expect(k1).not.toBe(k0);
    await save('project', project, { fields: { claim_verification_mode: 'advisory' } });
    expect((await effective(project)).generation_key).toBe(k1);
    await run.http.patch(`/projects/${project}/settings`, { auto_worktrees: true });
    expect((await effective(project)).generation_key).not.toBe(k1);
  });

  test('clone copies fields and reset_fields as a save at the target, with provenance', async () => {
    const sessionId = await newSession();
    await save('user', 'source-person', { fields: { auto_worktrees: true, executor_config: { test_min: 2 } }, reset_fields: ['code_intel_enabled'] });
    const cloned = await run.http.post('/profile-layers/user/source-person/clone', { target_scope_type: 'session', target_scope_id: sessionId });
    expect(cloned.status).toBe(200);
    expect(cloned.body).toMatchObject({
      scope_type: 'session',
      scope_id: sessionId,
      fields: { auto_worktrees: true, executor_config: { test_min: 2 } },
      reset_fields: ['code_intel_enabled'],
      provenance: { cloned_from: { scope_type: 'user', scope_id: 'source-person', revision: 1 } },
    });
    // The source's override_reason travels with the copy.
    await save('workspace', 'singleton', { fields: { require_merge_approval: true } });
    try {
      await save('user', 'relaxed', { fields: { require_merge_approval: false }, override_reason: 'prototype repository' });
      const relaxed = await run.http.post('/profile-layers/user/relaxed/clone', { target_scope_type: 'user', target_scope_id: 'relaxed-too' });
      expect(relaxed.status).toBe(200);
      expect(relaxed.body.provenance).toMatchObject({ override_reason: 'prototype repository', loosened: ['require_merge_approval'] });
    } finally {
      await clearWorkspace();
    }
    await save('session', sessionId, { fields: { executor_config: { repo_path: '/srv/app' } } });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const refused = await callTool(client, 'clone_profile_layer', {
        source_scope_type: 'session',
        source_scope_id: sessionId,
        target_scope_type: 'workspace',
        target_scope_id: 'singleton',
      });
      expect(refused.isError).toBe(true);
      expect(refused.structured).toMatchObject({ code: 'FIELD_NOT_ALLOWED_AT_SCOPE', field: 'fields.executor_config.repo_path' });
      const missing = await callTool(client, 'clone_profile_layer', {
        source_scope_type: 'user',
        source_scope_id: 'nobody',
        target_scope_type: 'user',
        target_scope_id: 'someone',
      });
      expect(missing.structured?.code).toBe('PROFILE_LAYER_NOT_FOUND');
    } finally {
      await client.close();
    }
  });

  test('list, get and reset: filters, 404s and scope ids checked per scope', async () => {
    const project = await newProject('Listing');
    const sessionId = await newSession(project);
    await save('project', project, { fields: { claim_verification_mode: 'advisory' } });
    await save('session', sessionId, { fields: { auto_worktrees: true } });
    const byProject = (await run.http.get(`/profile-layers?project_id=${project}`)).body as { scope_type: string; scope_id: string }[];
    expect(byProject.map((l) => `${l.scope_type}:${l.scope_id}`)).toEqual([`project:${project}`, `session:${sessionId}`]);
    const sessions = (await run.http.get(`/profile-layers?scope_type=session&scope_id=${sessionId}`)).body;
    expect(sessions).toHaveLength(1);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'list_profile_layers', { project_id: project })).value).toHaveLength(2);
      expect((await callTool(client, 'get_profile_layer', { scope_type: 'project', scope_id: project })).value.fields).toEqual({ claim_verification_mode: 'advisory' });
    } finally {
      await client.close();
    }
    const deleted = await run.http.delete(`/profile-layers/project/${project}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ deleted: true, scope_type: 'project', scope_id: project, revision: 1 });
    expect((await run.http.delete(`/profile-layers/project/${project}`)).body.code).toBe('PROFILE_LAYER_NOT_FOUND');

    expect((await put('/profile-layers/workspace/other', { fields: {} })).body.code).toBe('INVALID_SCOPE');
    expect((await put('/profile-layers/project/not-a-uuid', { fields: {} })).body.code).toBe('INVALID_SCOPE');
    const unknownProject = await put(`/profile-layers/project/${randomUUID()}`, { fields: {} });
    expect(unknownProject.status).toBe(404);
    expect(unknownProject.body.code).toBe('PROFILE_SCOPE_NOT_FOUND');
    expect((await run.http.get(`/projects/${randomUUID()}/effective-profile`)).status).toBe(404);
    expect((await run.http.get(`/projects/${project}/effective-profile?session_id=${randomUUID()}`)).status).toBe(404);
    expect((await run.http.get('/profile-layers/user/revisions')).body.code).toBe('PROFILE_LAYER_NOT_FOUND');
  });
});
