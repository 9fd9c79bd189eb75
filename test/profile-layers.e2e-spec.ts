import { randomUUID } from 'node:crypto';
import { StartSessionExtras } from '../src/common/extensions/start-session-extras';
import { ProfileLayer } from '../src/modules/profile-layers/profile-layer.entity';
import { ORDINARY, SECRETS } from './secret-corpus';
import { backends, RunningBackend } from './support/backends';
import { HttpResult } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { inTenantDb } from './support/tenant-db';

describe.each(backends().map((b) => [b.name, b] as const))('profile layers on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    projectId = (await run.http.post('/projects', { name: 'Profiles' })).body.id;
  });
  afterAll(async () => {
    await run?.stop();
  });

  const put = (path: string, body: unknown) => run.http.send('PUT', path, body);
  const save = async (scope: string, id: string, body: Record<string, unknown>) => {
    const res = await put(`/profile-layers/${scope}/${id}`, body);
    expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
    return res.body;
  };
  const effective = async (project = projectId, query = '') => {
    const res = await run.http.get(`/projects/${project}/effective-profile${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const newProject = async (name: string) => (await run.http.post('/projects', { name })).body.id as string;
  const newSession = async (project = projectId, human = 'ada') => (await run.http.post('/sessions/register', { project_id: project, human_id: human })).body.id as string;
  const clearWorkspace = async () => {
    await run.http.delete('/profile-layers/workspace/singleton');
  };

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
      const extras = await inTenantDb(run.testApp, run.token, (m) =>
        run.testApp.app.get(StartSessionExtras).collect(m, { projectId, sessionId, humanId: 'ada' }),
      );
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
    await save('workspace', 'singleton', { fields: { max_pinned_decisions: 30, code_intel_enabled: true, executor_config: { test_command: 'npm test' } } });
    await save('user', 'grace', { fields: { max_pinned_decisions: 40, auto_worktrees: true } });
    expect((await run.http.patch(`/projects/${project}/settings`, { max_pinned_decisions: 50 })).status).toBe(200);
    await save('project', project, { fields: { capability_manifest_ref: '.baton/capabilities.json' } });
    await save('session', sessionId, { fields: { executor_config: { max_parallel: 4 } }, reset_fields: ['code_intel_enabled'] });
    try {
      const profile = await effective(project, `?session_id=${sessionId}`);
      expect(profile.fields).toMatchObject({
        max_pinned_decisions: { value: 50, source: 'project' },
        auto_worktrees: { value: true, source: 'user' },
        code_intel_enabled: { value: false, source: 'session' },
        'executor_config.test_command': { value: 'npm test', source: 'workspace' },
        'executor_config.max_parallel': { value: 4, source: 'session' },
        capability_manifest_ref: { value: '.baton/capabilities.json', source: 'project' },
        execution_mode: { value: 'interactive', source: 'default' },
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

  describe('narrow-only dials', () => {
    afterEach(clearWorkspace);

    test('loosening hitl_auto_answer at project scope without override_reason is refused; with it, accepted and recorded', async () => {
      const project = await newProject('Narrow hitl');
      await save('workspace', 'singleton', { fields: { hitl_auto_answer: false } });
      const refused = await run.http.patch(`/projects/${project}/settings`, { hitl_auto_answer: true });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'LOOSENING_NOT_ALLOWED', field: 'hitl_auto_answer', tighter_source: 'workspace' });
      expect(refused.body.detail).toMatch(/hitl_auto_answer may only be tightened at project scope.*override_reason/);
      expect((await run.http.get(`/projects/${project}/settings`)).body.hitl_auto_answer).toBe(false);

      const accepted = await run.http.patch(`/projects/${project}/settings`, { hitl_auto_answer: true, override_reason: 'the nightly bot only asks yes/no questions' });
      expect(accepted.status).toBe(200);
      expect(accepted.body.hitl_auto_answer).toBe(true);
      const profile = await effective(project);
      expect(profile.fields.hitl_auto_answer).toEqual({ value: true, source: 'project', override_reason: 'the nightly bot only asks yes/no questions' });
      // A later change of another field keeps the accepted loosening.
      await run.http.patch(`/projects/${project}/settings`, { max_pinned_decisions: 9 });
      expect((await effective(project)).fields.hitl_auto_answer).toMatchObject({ value: true, override_reason: 'the nightly bot only asks yes/no questions' });

      const client = await connectMcp(run.testApp.url, run.token);
      try {
        const other = await newProject('Narrow hitl over MCP');
        const tool = await callTool(client, 'update_project_settings', { project_id: other, hitl_auto_answer: true });
        expect(tool.isError).toBe(true);
        expect(tool.structured?.code).toBe('LOOSENING_NOT_ALLOWED');
      } finally {
        await client.close();
      }
    });

    test('tightening needs no reason; loosening a layer is refused at every scope and recorded when allowed', async () => {
      const project = await newProject('Narrow all');
      const sessionId = await newSession(project, 'lin');
      await save('workspace', 'singleton', { fields: { require_merge_approval: true, executor_config: { test_min: 3 }, claim_verification_mode: 'advisory' } });
      const cases: [string, string, Record<string, unknown>, string][] = [
        ['user', 'lin', { require_merge_approval: false }, 'require_merge_approval'],
        ['session', sessionId, { executor_config: { test_min: 1 } }, 'executor_config.test_min'],
        ['project', project, { claim_verification_mode: 'off' }, 'claim_verification_mode'],
        ['session', sessionId, {}, 'claim_verification_mode'],
      ];
      for (const [scope, id, fields, field] of cases) {
        const body = Object.keys(fields).length ? { fields } : { fields: {}, reset_fields: [field] };
        const res = await put(`/profile-layers/${scope}/${id}`, body);
        expect({ scope, status: res.status, code: res.body.code, field: res.body.field }).toEqual({ scope, status: 409, code: 'LOOSENING_NOT_ALLOWED', field });
      }
      const tighter = await save('session', sessionId, { fields: { executor_config: { test_min: 5 }, claim_verification_mode: 'strict' } });
      expect(tighter.provenance).toMatchObject({ override_reason: null, loosened: [] });
      const loosened = await save('user', 'lin', { fields: { require_merge_approval: false }, override_reason: 'solo maintainer' });
      expect(loosened.provenance).toMatchObject({ override_reason: 'solo maintainer', loosened: ['require_merge_approval'] });
      expect((await run.http.get('/profile-layers/user/lin')).body.provenance.override_reason).toBe('solo maintainer');
      const profile = await effective(project, `?session_id=${sessionId}`);
      expect(profile.fields.require_merge_approval).toEqual({ value: false, source: 'user', override_reason: 'solo maintainer' });
      expect(profile.fields['executor_config.test_min']).toEqual({ value: 5, source: 'session' });
      expect(profile.fields.claim_verification_mode).toEqual({ value: 'strict', source: 'session' });
    });

    test('a layer loosened before a less specific one tightened stays tightened at resolution, and says so', async () => {
      const project = await newProject('Clamped');
      expect((await run.http.patch(`/projects/${project}/settings`, { hitl_auto_answer: true })).status).toBe(200);
      expect((await effective(project)).fields.hitl_auto_answer).toEqual({ value: true, source: 'project' });
      await save('workspace', 'singleton', { fields: { hitl_auto_answer: false } });
      const profile = await effective(project);
      expect(profile.fields.hitl_auto_answer).toEqual({ value: false, source: 'workspace' });
      expect(profile.ignored_loosenings).toEqual([{ field: 'hitl_auto_answer', scope_type: 'project', value: true, kept_from: 'workspace' }]);
      expect((await run.http.get(`/projects/${project}/settings`)).body.hitl_auto_answer).toBe(false);
    });
  });

  describe('values that must never be stored', () => {
    test('secret-shaped strings are refused at write time, naming the field and never the value', async () => {
      for (const [name, value] of SECRETS) {
        const res = await put('/profile-layers/workspace/singleton', { fields: { executor_config: { test_command: `run ${value}`.slice(0, 500) } } });
        expect({ name, status: res.status, code: res.body.code, field: res.body.field }).toEqual({
          name,
          status: 400,
          code: 'SECRET_VALUE',
          field: 'fields.executor_config.test_command',
        });
        expect(res.text).not.toContain(value.slice(0, 40));
      }
      expect((await run.http.get('/profile-layers/workspace/singleton')).status).toBe(404);
    });

    test('ordinary values are all accepted', async () => {
      for (const value of ORDINARY.filter((v) => v.trim() !== '')) {
        const res = await put('/profile-layers/user/ordinary', { fields: { executor_config: { test_command: value } } });
        expect({ value, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ value, status: 200, body: undefined });
      }
    });

    test('secrets are refused everywhere: map keys, manifest refs, override_reason, project settings', async () => {
      const token = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG5'}`;
      const key = await put('/profile-layers/user/keys', { fields: { tool_priority_map: { [`x${token}`.slice(0, 60)]: 1 } } });
      expect(key.status).toBe(400);
      const ref = await put(`/profile-layers/project/${projectId}`, { fields: { capability_manifest_ref: 'https://ci:hunter2-Xy9@example.com/manifest.json' } });
      expect(ref.body).toMatchObject({ code: 'SECRET_VALUE', field: 'fields.capability_manifest_ref', secret_kind: 'url_credentials' });
      expect(ref.text).not.toContain('hunter2');
      const reason = await put('/profile-layers/user/keys', { fields: {}, override_reason: `token ${token}` });
      expect(reason.body).toMatchObject({ code: 'SECRET_VALUE', field: 'override_reason' });
      const settings = await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { test_command: `GITHUB_TOKEN=${token} npm test` } });
      expect(settings.status).toBe(400);
      expect(settings.body).toMatchObject({ code: 'SECRET_VALUE', field: 'executor_config.test_command' });
      for (const res of [key, ref, reason, settings]) expect(res.text).not.toContain(token);
    });

    test('machine-local paths are refused except executor_config.* at project or session scope', async () => {
      const sessionId = await newSession();
      for (const path of ['/home/ada/work/app', 'C:\\Users\\ada\\app', '~/work/app', '\\\\server\\share\\app', 'file:///srv/app']) {
        const res = await put('/profile-layers/workspace/singleton', { fields: { executor_config: { test_command: `cd ${path} && npm test` } } });
        expect({ path, status: res.status, code: res.body.code }).toEqual({ path, status: 400, code: 'MACHINE_LOCAL_PATH' });
        expect(res.body.field).toBe('fields.executor_config.test_command');
      }
      const manifest = await put(`/profile-layers/project/${projectId}`, { fields: { capability_manifest_ref: '/home/ada/manifest.json' } });
      expect(manifest.body).toMatchObject({ code: 'MACHINE_LOCAL_PATH', field: 'fields.capability_manifest_ref', path_kind: 'unix_absolute' });
      const repoAtWorkspace = await put('/profile-layers/workspace/singleton', { fields: { executor_config: { repo_path: 'app' } } });
      expect(repoAtWorkspace.body).toMatchObject({ code: 'FIELD_NOT_ALLOWED_AT_SCOPE', field: 'fields.executor_config.repo_path' });

      const atSession = await save('session', sessionId, { fields: { executor_config: { repo_path: '/home/ada/work/app', test_command: 'cd /home/ada/work/app && make' } } });
      expect(atSession.fields.executor_config.repo_path).toBe('/home/ada/work/app');
      expect(atSession.restart_report.general).toBe('restart_required');
      const atProject = await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { repo_path: 'C:\\work\\app' } });
      expect(atProject.status).toBe(200);
      expect(atProject.body.executor_config.repo_path).toBe('C:\\work\\app');
      await run.http.patch(`/projects/${projectId}/settings`, { executor_config: null });
    });
  });

  describe('project settings and the project layer', () => {
    afterEach(clearWorkspace);

    test('the settings route and the effective profile agree, and null falls back to the layers below', async () => {
      const project = await newProject('Agreement');
      await save('workspace', 'singleton', { fields: { execution_mode: 'autonomous', max_pinned_decisions: 33 } });
      expect((await run.http.get(`/projects/${project}/settings`)).body).toMatchObject({ execution_mode: 'autonomous', max_pinned_decisions: 33 });
      expect((await effective(project)).fields.execution_mode).toEqual({ value: 'autonomous', source: 'workspace' });

      const patched = await run.http.patch(`/projects/${project}/settings`, { execution_mode: 'interactive' });
      expect(patched.body).toMatchObject({ execution_mode: 'interactive', max_pinned_decisions: 33 });
      expect((await effective(project)).fields.execution_mode).toEqual({ value: 'interactive', source: 'project' });

      const unset = await run.http.patch(`/projects/${project}/settings`, { execution_mode: null });
      expect(unset.body.execution_mode).toBe('autonomous');
      const profile = await effective(project);
      expect(profile.fields.execution_mode).toEqual({ value: 'autonomous', source: 'workspace' });
      const settings = (await run.http.get(`/projects/${project}/settings`)).body;
      for (const key of ['max_pinned_decisions', 'hitl_auto_answer', 'auto_worktrees', 'require_merge_approval', 'code_intel_enabled', 'execution_mode']) {
        expect({ key, value: settings[key] }).toEqual({ key, value: profile.fields[key].value });
      }
    });

    test('a project layer holds only the three new fields; the seven legacy ones are pointed to the settings route', async () => {
      const project = await newProject('Three fields');
      const refused = await put(`/profile-layers/project/${project}`, { fields: { hitl_auto_answer: false } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'FIELD_NOT_ALLOWED_AT_SCOPE', field: 'fields.hitl_auto_answer' });
      expect(refused.body.detail).toMatch(/PATCH \/projects\/\{project_id\}\/settings/);
      const saved = await save('project', project, {
        fields: { tool_priority_map: { 'github:create_issue': 10 }, capability_manifest_ref: 'https://example.com/manifest.json', claim_verification_mode: 'strict' },
      });
      expect(saved.fields).toEqual({ capability_manifest_ref: 'https://example.com/manifest.json', claim_verification_mode: 'strict', tool_priority_map: { 'github:create_issue': 10 } });
      const rows = await inTenantDb(run.testApp, run.token, (m) => m.find(ProfileLayer, { where: { scope_type: 'project', scope_id: project } }));
      expect(rows).toHaveLength(1);
      expect(rows[0].project_id).toBe(project);
      expect((await effective(project)).fields.claim_verification_mode).toEqual({ value: 'strict', source: 'project' });
      expect((await run.http.get(`/projects/${project}/settings`)).body).not.toHaveProperty('claim_verification_mode');
    });

    test('deleting a project deletes its project and session layers', async () => {
      const project = await newProject('Doomed');
      const sessionId = await newSession(project);
      await save('project', project, { fields: { claim_verification_mode: 'advisory' } });
      await save('session', sessionId, { fields: { auto_worktrees: true } });
      expect((await run.http.get(`/profile-layers?project_id=${project}`)).body).toHaveLength(2);
      expect((await run.http.delete(`/projects/${project}`)).status).toBe(204);
      const left = await inTenantDb(run.testApp, run.token, (m) => m.count(ProfileLayer, { where: { project_id: project } }));
      expect(left).toBe(0);
    });
  });

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
