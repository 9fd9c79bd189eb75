import { ProfileLayer } from '../src/modules/profile-layers/profile-layer.entity';
import { eachBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { profileClient, PROFILE_TEST_ENV } from './support/profile-client';
import { ORDINARY, SECRETS } from './support/secret-corpus';
import { inTenantDb } from './support/tenant-db';

describe.each(eachBackend())('profile layer rules on %s', (_name, backend) => {
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

  test('fields are checked one by one and refused with the field named, never dropped', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ fields: { colour: 'red' } }, 'INVALID_FIELD', 'fields.colour'],
      [{ fields: { executor_config: { rm_rf: true } } }, 'INVALID_FIELD', 'fields.executor_config.rm_rf'],
      [{ fields: { hitl_auto_answer: null } }, 'INVALID_FIELD', 'fields.hitl_auto_answer'],
      [{ fields: { hitl_auto_answer: 1 } }, 'INVALID_FIELD', 'fields.hitl_auto_answer'],
      [{ fields: { max_pinned_decisions: 0 } }, 'INVALID_FIELD', 'fields.max_pinned_decisions'],
      [{ fields: { max_pinned_decisions: 2.5 } }, 'INVALID_FIELD', 'fields.max_pinned_decisions'],
      [{ fields: { claim_verification_mode: 'paranoid' } }, 'INVALID_FIELD', 'fields.claim_verification_mode'],
      [{ fields: { tool_priority_map: { 'bad key!': 1 } } }, 'INVALID_FIELD', 'fields.tool_priority_map'],
      [{ fields: { tool_priority_map: { 'fs:*': 101 } } }, 'INVALID_FIELD', 'fields.tool_priority_map.fs:*'],
      [{ fields: { tool_priority_map: ['fs'] } }, 'INVALID_FIELD', 'fields.tool_priority_map'],
      [{ fields: { capability_manifest_ref: '../outside/manifest.json' } }, 'INVALID_FIELD', 'fields.capability_manifest_ref'],
      [{ fields: { capability_manifest_ref: 'ftp://example.com/m.json' } }, 'INVALID_FIELD', 'fields.capability_manifest_ref'],
      [{ fields: { hosted_default_id: 'global' } }, 'FIELD_NOT_ALLOWED_AT_SCOPE', 'fields.hosted_default_id'],
      [{ fields: {}, reset_fields: ['nope'] }, 'INVALID_FIELD', 'reset_fields'],
      [{ fields: { auto_worktrees: true }, reset_fields: ['auto_worktrees'] }, 'INVALID_FIELD', 'fields.auto_worktrees'],
    ];
    for (const [body, code, field] of cases) {
      const res = await put('/profile-layers/user/checked', body);
      expect({ body, status: res.status, code: res.body.code, field: res.body.field }).toEqual({ body, status: 400, code, field });
      expect(res.body.detail).toContain(field.split('.').slice(0, 2).join('.'));
    }
    const unknownTop = await put('/profile-layers/user/checked', { fields: {}, colour: 'red' });
    expect(unknownTop.body).toMatchObject({ code: 'INVALID_INPUT', detail: expect.stringContaining('unknown field colour') });
    expect((await put('/profile-layers/user/checked', { fields: [] })).body.code).toBe('INVALID_INPUT');
    expect((await run.http.get('/profile-layers/user/checked')).status).toBe(404);
  });

  test('other modules read the effective value: a workspace that turns hitl_auto_answer on makes questions answer themselves', async () => {
    const project = await newProject('Auto answers');
    const sessionId = await newSession(project);
    await save('workspace', 'singleton', { fields: { hitl_auto_answer: true } });
    try {
      const asked = await run.http.post(`/projects/${project}/hitl`, { question: 'Proceed with the migration?', session_id: sessionId });
      expect(asked.status).toBe(201);
      expect(asked.body).toMatchObject({ status: 'answered', answered_by: 'auto' });
    } finally {
      await clearWorkspace();
    }
    const manual = await run.http.post(`/projects/${project}/hitl`, { question: 'And now?', session_id: sessionId });
    expect(manual.body.status).toBe('pending');
  });

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
      expect(saved.fields).toEqual({
        capability_manifest_ref: 'https://example.com/manifest.json',
        claim_verification_mode: 'strict',
        tool_priority_map: { 'github:create_issue': 10 },
      });
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
});
