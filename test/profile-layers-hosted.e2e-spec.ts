import { randomUUID } from 'node:crypto';
import { StartSessionExtras } from '../src/common/extensions/start-session-extras';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { addMember, signIn } from './support/accounts';
import { ADMIN_PASSWORD, adminHeaders } from './support/admin';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import { inTenantDb } from './support/tenant-db';
import { hostedEnv, startApp, TestApp } from './support/test-app';

const ENV = { SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS: '0' };

/**
 * hosted_default layers. Self-hosted, whoever runs Baton is its operator.
 * Hosted, they live in the control plane and only the operator's tenant
 * (SERVICE_OPERATOR_TENANT_ID) writes them: here a second instance on the same
 * database names tenant-a as the operator, while the first instance does not,
 * so tenant-a's token is the operator on one and an ordinary tenant on the other.
 */
describe.each(eachBackend())('hosted_default profile layers on %s', (name, backend) => {
  const hosted = name.includes('hosted') && !name.includes('self-hosted');
  let run: RunningBackend;
  let operatorApp: TestApp | undefined;
  let operator: Http;
  let tenant: Http;
  let projectId: string;

  beforeAll(async () => {
    run = await backend.start(ENV);
    tenant = run.http;
    operator = run.http;
    if (hosted) {
      const { tenantId } = await run.testApp.app.get(TenantResolver).resolve(`Bearer ${run.token}`);
      operatorApp = await startApp(hostedEnv(run.db!.url, { ...ENV, SERVICE_OPERATOR_TENANT_ID: tenantId }));
      operator = new Http(operatorApp.url, run.token);
    }
    projectId = (await tenant.post('/projects', { name: 'Hosted defaults' })).body.id;
  });
  afterAll(async () => {
    await operatorApp?.close();
    await run?.stop();
  });

  const put = (http: Http, path: string, body: unknown) => http.send('PUT', path, body);
  const effective = async (query = '') => {
    const res = await tenant.get(`/projects/${projectId}/effective-profile${query}`);
    expect(res.status).toBe(200);
    return res.body;
  };
  const operatorPost = async (path: string) => {
    const res = await operator.post(path);
    expect({ path, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ path, status: 200, body: undefined });
    return res.body;
  };

  test('a draft hosted_default has no effect until activated; deprecated still applies but degrades; retired has none after', async () => {
    const draft = await put(operator, '/profile-layers/hosted_default/global', { fields: { max_pinned_decisions: 7, require_merge_approval: true } });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ scope_type: 'hosted_default', scope_id: 'global', status: 'draft', revision: 1 });
    const before = await effective();
    expect(before.fields.max_pinned_decisions).toEqual({ value: 20, source: 'default' });
    expect(before).toMatchObject({ executable: true, degraded: false, hosted_default: { scope_id: 'global', applied: false } });
    expect((await tenant.get(`/projects/${projectId}/settings`)).body.max_pinned_decisions).toBe(20);

    expect(await operatorPost('/profile-layers/global/activate')).toMatchObject({ status: 'active', revision: 2 });
    const active = await effective();
    expect(active.fields.max_pinned_decisions).toEqual({ value: 7, source: 'hosted_default' });
    expect(active.fields.require_merge_approval).toEqual({ value: true, source: 'hosted_default' });
    expect(active).toMatchObject({ executable: true, degraded: false, hosted_default: { scope_id: 'global', selected_by: 'default', status: 'active', applied: true } });
    expect(active.generation_key).not.toBe(before.generation_key);
    expect((await tenant.get(`/projects/${projectId}/settings`)).body.max_pinned_decisions).toBe(7);
    const loosen = await put(tenant, '/profile-layers/workspace/singleton', { fields: { require_merge_approval: false } });
    expect(loosen.body).toMatchObject({ code: 'LOOSENING_NOT_ALLOWED', tighter_source: 'hosted_default' });

    expect(await operatorPost('/profile-layers/global/deprecate')).toMatchObject({ status: 'deprecated', revision: 3 });
    const deprecated = await effective();
    expect(deprecated.fields.max_pinned_decisions).toEqual({ value: 7, source: 'hosted_default' });
    expect(deprecated).toMatchObject({ executable: true, degraded: true });
    expect(deprecated.degraded_reasons[0]).toMatch(/hosted_default global is deprecated/);

    expect(await operatorPost('/profile-layers/global/retire')).toMatchObject({ status: 'retired', revision: 4 });
    const retired = await effective();
    expect(retired.fields.max_pinned_decisions).toEqual({ value: 20, source: 'default' });
    expect(retired).toMatchObject({ executable: true, degraded: false, hosted_default: { status: 'retired', applied: false } });

    const revisions = await tenant.get('/profile-layers/global/revisions');
    expect(revisions.status).toBe(200);
    expect(revisions.body.map((r: { revision: number; action: string; status: string }) => [r.revision, r.action, r.status])).toEqual([
      [4, 'retire', 'retired'],
      [3, 'deprecate', 'deprecated'],
      [2, 'activate', 'active'],
      [1, 'save', 'draft'],
    ]);
    expect(revisions.body[3].fields).toEqual({ max_pinned_decisions: 7, require_merge_approval: true });
    expect((await tenant.get('/profile-layers/global/revisions?limit=2')).body.map((r: { revision: number }) => r.revision)).toEqual([4, 3]);
    const client = await connectMcp(tenant.base, run.token);
    try {
      const tool = await callTool(client, 'get_profile_layer_revisions', { scope_id: 'global', limit: 1 });
      expect(tool.value).toEqual([expect.objectContaining({ revision: 4, action: 'retire' })]);
    } finally {
      await client.close();
    }

    // Retired is final: it cannot change; it can be removed, and the id used again from a new draft.
    expect((await put(operator, '/profile-layers/hosted_default/global', { fields: {} })).body.code).toBe('LAYER_RETIRED');
    expect((await operator.post('/profile-layers/global/activate')).body.code).toBe('INVALID_TRANSITION');
    const removed = await operator.delete('/profile-layers/hosted_default/global');
    expect(removed.body).toEqual({ deleted: true, scope_type: 'hosted_default', scope_id: 'global', revision: 5 });
    const again = await put(operator, '/profile-layers/hosted_default/global', { fields: { auto_worktrees: true } });
    expect(again.body).toMatchObject({ status: 'draft', revision: 6 });
    expect((await operator.get('/profile-layers/global/revisions')).body.map((r: { action: string }) => r.action)).toEqual([
      'save',
      'reset',
      'retire',
      'deprecate',
      'activate',
      'save',
    ]);
    expect((await operator.delete('/profile-layers/hosted_default/global')).status).toBe(200);
  });

  test('a workspace may select another hosted_default; its lifecycle decides executable and degraded', async () => {
    const created = await put(operator, '/profile-layers/hosted_default/team-2025', { fields: { executor_config: { test_min: 2 }, auto_worktrees: true } });
    expect(created.body.status).toBe('draft');
    const selectDraft = await put(tenant, '/profile-layers/workspace/singleton', { fields: { hosted_default_id: 'team-2025' } });
    if (hosted) {
      // The operator's drafts are not offered to tenants.
      expect(selectDraft.body).toMatchObject({ code: 'UNKNOWN_HOSTED_DEFAULT', field: 'fields.hosted_default_id' });
    } else {
      expect(selectDraft.status).toBe(200);
      expect(await effective()).toMatchObject({ executable: true, degraded: true, hosted_default: { scope_id: 'team-2025', status: 'draft', applied: false } });
    }
    await operatorPost('/profile-layers/team-2025/activate');
    expect((await put(tenant, '/profile-layers/workspace/singleton', { fields: { hosted_default_id: 'team-2025', max_pinned_decisions: 15 } })).status).toBe(200);
    const selected = await effective();
    expect(selected).toMatchObject({
      executable: true,
      degraded: false,
      hosted_default: { scope_id: 'team-2025', selected_by: 'workspace', status: 'active', applied: true },
    });
    expect(selected.fields['executor_config.test_min']).toEqual({ value: 2, source: 'hosted_default' });
    expect(selected.fields.max_pinned_decisions).toEqual({ value: 15, source: 'workspace' });
    // The base turns auto_worktrees on: a worker's next-claim gets its worktree record (hosted, the base is in the control plane).
    const fresh = (await tenant.post('/projects', { name: 'Worktrees from the base' })).body.id;
    const worker = (await tenant.post('/sessions/register', { project_id: fresh, name: 'base worker', kind: 'worker' })).body.id;
    const item = (await tenant.post(`/projects/${fresh}/sprint-items`, { version: 'v1', title: 'Follow the base' })).body;
    const claimed = await tenant.post(`/projects/${fresh}/sprint-items/claim`, { session_id: worker });
    expect(claimed.body).toMatchObject({ claimed: true, item: { id: item.id }, worktree: { sprint_item_id: item.id } });

    const retireActive = await operator.post('/profile-layers/team-2025/retire');
    expect(retireActive.status).toBe(409);
    expect(retireActive.body).toMatchObject({ code: 'INVALID_TRANSITION', status: 'active' });
    expect(retireActive.body.detail).toMatch(/deprecate it first/);
    const resetActive = await operator.delete('/profile-layers/hosted_default/team-2025');
    expect(resetActive.body.code).toBe('INVALID_TRANSITION');

    await operatorPost('/profile-layers/team-2025/deprecate');
    expect(await operatorPost('/profile-layers/team-2025/deprecate')).toMatchObject({ status: 'deprecated', revision: 3 });
    expect(await effective()).toMatchObject({ executable: true, degraded: true, hosted_default: { status: 'deprecated', applied: true } });

    await operatorPost('/profile-layers/team-2025/retire');
    const retired = await effective();
    expect(retired).toMatchObject({ executable: false, degraded: true, hosted_default: { status: 'retired', applied: false } });
    expect(retired.degraded_reasons.join(' ')).toMatch(/retired: select another/);
    expect(retired.fields['executor_config.test_min']).toEqual({ value: null, source: 'default' });
    const extras = await inTenantDb(run.testApp, run.token, (m) => run.testApp.app.get(StartSessionExtras).collect(m, { projectId }));
    expect(extras.profile).toMatchObject({ executable: false, degraded: true });
    const started = await tenant.post(`/projects/${projectId}/start-session`, { name: 'on a retired base' });
    expect(started.body.profile).toMatchObject({ executable: false, degraded: true });

    const reselect = await put(tenant, '/profile-layers/workspace/singleton', { fields: { hosted_default_id: 'team-2025' } });
    expect(reselect.body.code).toBe('UNKNOWN_HOSTED_DEFAULT');
    expect((await tenant.delete('/profile-layers/workspace/singleton')).status).toBe(200);
    expect(await effective()).toMatchObject({ executable: true, degraded: false, hosted_default: { scope_id: 'global' } });
  });

  test('self-hosted, user/me is the default human id (SERVICE_HUMAN_ID): user layers keep human ids there', async () => {
    if (hosted) return;
    const saved = await put(tenant, '/profile-layers/user/me', { fields: { auto_worktrees: true } });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ scope_type: 'user', scope_id: 'ada' });
    expect((await tenant.get('/profile-layers/user/ada')).body.fields).toEqual({ auto_worktrees: true });
    const session = (await tenant.post('/sessions/register', { project_id: projectId, name: 'me-check' })).body.id;
    expect((await effective(`?session_id=${session}`)).fields.auto_worktrees).toEqual({ value: true, source: 'user' });
    expect((await tenant.delete('/profile-layers/user/me')).status).toBe(200);
  });

  test('hosted_default ids are checked: scope names and malformed ids are refused, unknown ones are 404', async () => {
    expect((await put(operator, '/profile-layers/hosted_default/user', { fields: {} })).body.code).toBe('INVALID_SCOPE');
    expect((await put(operator, '/profile-layers/hosted_default/Not%20OK', { fields: {} })).body.code).toBe('INVALID_SCOPE');
    expect((await operator.post('/profile-layers/Not_OK/activate')).status).toBe(400);
    expect((await operator.post('/profile-layers/never-made/activate')).body.code).toBe('PROFILE_LAYER_NOT_FOUND');
    expect((await operator.get('/profile-layers/never-made/revisions')).status).toBe(404);
    expect((await tenant.get('/profile-layers/never-made/revisions?limit=0')).status).toBe(400);
  });

  if (hosted) {
    test('only the operator writes hosted_default layers; its drafts are invisible to tenants', async () => {
      const draft = await put(operator, '/profile-layers/hosted_default/secret-plan', { fields: { auto_worktrees: true } });
      expect(draft.body.status).toBe('draft');
      const refusals = [
        await put(tenant, '/profile-layers/hosted_default/secret-plan', { fields: {} }),
        await tenant.post('/profile-layers/secret-plan/activate'),
        await tenant.post('/profile-layers/secret-plan/deprecate'),
        await tenant.post('/profile-layers/secret-plan/retire'),
        await tenant.delete('/profile-layers/hosted_default/secret-plan'),
        await tenant.post('/profile-layers/workspace/singleton/clone', { target_scope_type: 'hosted_default', target_scope_id: 'secret-plan' }),
      ];
      for (const res of refusals) {
        expect(res.status === 403 || (res.status === 404 && res.body.code === 'PROFILE_LAYER_NOT_FOUND')).toBe(true);
      }
      expect(refusals.slice(0, 5).map((r) => r.body.code)).toEqual(Array(5).fill('OPERATOR_ONLY'));
      expect(refusals[0].body.detail).toMatch(/only by the operator/);
      expect((await tenant.get('/profile-layers/hosted_default/secret-plan')).status).toBe(404);
      expect((await tenant.get('/profile-layers/secret-plan/revisions')).status).toBe(404);
      expect((await tenant.get('/profile-layers?scope_type=hosted_default')).body.map((l: { scope_id: string }) => l.scope_id)).not.toContain('secret-plan');
      expect((await operator.get('/profile-layers?scope_type=hosted_default')).body.map((l: { scope_id: string }) => l.scope_id)).toContain('secret-plan');
      const client = await connectMcp(tenant.base, run.token);
      try {
        const tool = await callTool(client, 'activate_profile_layer', { scope_id: 'secret-plan' });
        expect(tool.isError).toBe(true);
        expect(tool.structured?.code).toBe('OPERATOR_ONLY');
      } finally {
        await client.close();
      }
      await operator.post('/profile-layers/secret-plan/retire');
      expect((await operator.delete('/profile-layers/hosted_default/secret-plan')).status).toBe(200);
    });

    test("another tenant's layers, projects and sessions answer 404 everywhere, and its own layers are its own", async () => {
      const other = await tenantClient(run.testApp, 'tenant-b');
      const intruder = other.http;
      const sessionId = (await tenant.post('/sessions/register', { project_id: projectId, human_id: 'ada' })).body.id;
      await put(tenant, `/profile-layers/project/${projectId}`, { fields: { claim_verification_mode: 'advisory' } });
      await put(tenant, `/profile-layers/session/${sessionId}`, { fields: { auto_worktrees: true } });
      await put(tenant, '/profile-layers/user/ada', { fields: { code_intel_enabled: true } });
      await put(tenant, '/profile-layers/workspace/singleton', { fields: { execution_mode: 'autonomous' } });
      try {
        // Only the operator-wide hosted defaults are shared; none of tenant-a's own layers shows.
        const seen = (await intruder.get('/profile-layers')).body as { scope_type: string }[];
        expect(seen.filter((l) => l.scope_type !== 'hosted_default')).toEqual([]);
        for (const [scope, id] of [
          ['project', projectId],
          ['session', sessionId],
        ]) {
          const read = await intruder.get(`/profile-layers/${scope}/${id}`);
          expect(read.status).toBe(404);
          expect(read.body.code).toBe('PROFILE_SCOPE_NOT_FOUND');
          expect((await put(intruder, `/profile-layers/${scope}/${id}`, { fields: {} })).status).toBe(404);
          expect((await intruder.delete(`/profile-layers/${scope}/${id}`)).status).toBe(404);
          expect((await intruder.post(`/profile-layers/${scope}/${id}/clone`, { target_scope_type: 'user', target_scope_id: 'b' })).status).toBe(404);
          expect((await intruder.post('/profile-layers/workspace/singleton/clone', { target_scope_type: scope, target_scope_id: id })).status).toBe(404);
        }
        expect((await intruder.get('/profile-layers/user/ada')).body.code).toBe('PROFILE_LAYER_NOT_FOUND');
        expect((await intruder.get('/profile-layers/workspace/singleton')).status).toBe(404);
        expect((await intruder.get(`/projects/${projectId}/effective-profile`)).status).toBe(404);
        expect((await intruder.get(`/projects/${projectId}/settings`)).status).toBe(404);
        expect((await intruder.patch(`/projects/${projectId}/settings`, { max_pinned_decisions: 3 })).status).toBe(404);
        const client = await connectMcp(run.testApp.url, other.token);
        try {
          const tool = await callTool(client, 'get_effective_profile', { project_id: projectId, session_id: sessionId });
          expect(tool.structured?.code).toBe('PROJECT_NOT_FOUND');
          const layer = await callTool(client, 'get_profile_layer', { scope_type: 'session', scope_id: sessionId });
          expect(layer.structured?.code).toBe('PROFILE_SCOPE_NOT_FOUND');
        } finally {
          await client.close();
        }

        // The other tenant's own workspace and user layers do not reach tenant-a.
        expect((await put(intruder, '/profile-layers/workspace/singleton', { fields: { execution_mode: 'interactive', max_pinned_decisions: 2 } })).status).toBe(200);
        expect((await put(intruder, '/profile-layers/user/ada', { fields: { code_intel_enabled: false } })).status).toBe(200);
        const mine = await effective(`?session_id=${sessionId}`);
        expect(mine.fields.execution_mode).toEqual({ value: 'autonomous', source: 'workspace' });
        expect(mine.fields.max_pinned_decisions).toEqual({ value: 20, source: 'default' });
        expect(mine.fields.code_intel_enabled).toEqual({ value: true, source: 'user' });
        expect((await tenant.get('/profile-layers/workspace/singleton')).body.fields).toEqual({ execution_mode: 'autonomous' });
      } finally {
        for (const path of [`/profile-layers/project/${projectId}`, `/profile-layers/session/${sessionId}`, '/profile-layers/user/ada', '/profile-layers/workspace/singleton']) {
          await tenant.delete(path);
        }
      }
    });
  }

  test('an unknown project or session is 404 for the effective profile, a malformed one 400', async () => {
    expect((await tenant.get(`/projects/${randomUUID()}/effective-profile`)).body.code).toBe('PROJECT_NOT_FOUND');
    expect((await tenant.get(`/projects/${projectId}/effective-profile?session_id=${randomUUID()}`)).body.code).toBe('PROFILE_SCOPE_NOT_FOUND');
    expect((await tenant.get(`/projects/${projectId}/effective-profile?session_id=nope`)).status).toBe(400);
    expect((await tenant.get('/projects/nope/effective-profile')).status).toBe(400);
  });
});

describe.each(hostedBackend())('hosted_default layers authored by the admin identity on %s', (_name, backend) => {
  const adminEmail = `boss-${randomUUID().slice(0, 6)}@example.test`;
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ ...ENV, SERVICE_ADMIN_EMAILS: adminEmail, SERVICE_ADMIN_PASSWORD: ADMIN_PASSWORD });
  });
  afterAll(async () => {
    await run?.stop();
  });

  const put = (http: Http, id: string, fields: Record<string, unknown>) => http.send('PUT', `/profile-layers/hosted_default/${id}`, { fields });

  test('a signed-in admin writes, activates and reads the history of a hosted default, named as its author; a tenant sees the draft only once active', async () => {
    const id = `admin-${randomUUID().slice(0, 6)}`;
    const admin = await signIn(run.testApp, adminEmail.toUpperCase());
    const draft = await put(admin.http, id, { max_pinned_decisions: 9 });
    expect(draft.status).toBe(200);
    expect(draft.body).toMatchObject({ scope_type: 'hosted_default', scope_id: id, status: 'draft', revision: 1 });
    // Another workspace does not see the admin's draft, and cannot write one.
    const other = await tenantClient(run.testApp, `plain-${randomUUID().slice(0, 6)}`);
    expect((await other.http.get(`/profile-layers/hosted_default/${id}`)).status).toBe(404);
    const refused = await put(other.http, id, { max_pinned_decisions: 1 });
    expect([refused.status, refused.body.code]).toEqual([403, 'OPERATOR_ONLY']);
    const person = await signIn(run.testApp, `someone-${randomUUID().slice(0, 6)}@example.test`);
    expect((await put(person.http, id, { max_pinned_decisions: 1 })).body.code).toBe('OPERATOR_ONLY');

    expect((await admin.http.post(`/profile-layers/${id}/activate`)).body).toMatchObject({ status: 'active', revision: 2 });
    expect((await other.http.get(`/profile-layers/hosted_default/${id}`)).body).toMatchObject({ status: 'active', fields: { max_pinned_decisions: 9 } });
    const history = await admin.http.get(`/profile-layers/${id}/revisions`);
    expect(history.body.map((r: { action: string; author: string }) => [r.action, r.author])).toEqual([
      ['activate', adminEmail.toLowerCase()],
      ['save', adminEmail.toLowerCase()],
    ]);
    // Bad input is refused by name, nothing stored.
    const bad = await put(admin.http, id, { max_pinned_decisions: 'many' });
    expect([bad.status, bad.body.detail]).toEqual([400, expect.stringContaining('max_pinned_decisions')]);
    expect((await admin.http.get(`/profile-layers/${id}/revisions`)).body).toHaveLength(2);
  });

  test("hosted, a person's user layer is keyed on their account: user/me, sessions of any human id, and an e-mail-keyed layer carried over", async () => {
    const email = `lin-${randomUUID().slice(0, 6)}@example.test`;
    const owner = await signIn(run.testApp, email);
    // Before accounts keyed user layers, people used their address as the human id.
    const legacy = await owner.http.send('PUT', `/profile-layers/user/${email}`, { fields: { code_intel_enabled: true } });
    expect(legacy.status).toBe(200);
    const project = (await owner.http.post('/projects', { name: 'Keyed on the account' })).body.id;
    const session = (await owner.http.post('/sessions/register', { project_id: project, name: 'laptop', human_id: 'lin-laptop' })).body.id;
    const mine = await owner.http.get(`/projects/${project}/effective-profile?session_id=${session}`);
    expect(mine.body.fields.code_intel_enabled).toEqual({ value: true, source: 'user' });
    // Carried over: the layer is the account's now, reachable as user/me, and the address key is gone.
    expect((await owner.http.get(`/profile-layers/user/${owner.accountId}`)).body).toMatchObject({ scope_id: owner.accountId, fields: { code_intel_enabled: true } });
    expect((await owner.http.get('/profile-layers/user/me')).body.scope_id).toBe(owner.accountId);
    expect((await owner.http.get(`/profile-layers/user/${email}`)).status).toBe(404);
    const saved = await owner.http.send('PUT', '/profile-layers/user/me', { fields: { code_intel_enabled: true, execution_mode: 'interactive' } });
    expect([saved.status, saved.body.scope_id]).toEqual([200, owner.accountId]);

    // Another member of the same workspace resolving the same session gets their own (empty) user layer, not the owner's.
    const colleague = await addMember(run.testApp, owner.tenantId, 'member');
    const theirs = await new Http(run.testApp.url, colleague.token).get(`/projects/${project}/effective-profile?session_id=${session}`);
    expect(theirs.body.fields.execution_mode).toEqual({ value: 'autonomous', source: 'default' });
    // A token no one made names no person: user/me is refused, naming why.
    const nobody = new Http(run.testApp.url, await run.testApp.app.get(ApiTokens).createToken(owner.tenantId, 'ci'));
    const refused = await nobody.get('/profile-layers/user/me');
    expect([refused.status, refused.body.code, refused.body.detail]).toEqual([400, 'INVALID_SCOPE', expect.stringMatching(/names no one/)]);
    // Another workspace does not see the person's layer.
    const stranger = await tenantClient(run.testApp, `stranger-${randomUUID().slice(0, 6)}`);
    expect((await stranger.http.get(`/profile-layers/user/${owner.accountId}`)).status).toBe(404);
  });

  test('the admin password cookie beside a workspace credential authors too, recorded as the admin password', async () => {
    const id = `pw-${randomUUID().slice(0, 6)}`;
    const { cookie } = await adminHeaders(run.testApp);
    const withCookie = run.http.withHeaders({ cookie });
    const saved = await put(withCookie, id, { execution_mode: 'autonomous' });
    expect(saved.status).toBe(200);
    expect((await withCookie.get(`/profile-layers/${id}/revisions`)).body).toEqual([expect.objectContaining({ action: 'save', author: 'admin password' })]);
    // The same workspace credential without the cookie is an ordinary tenant.
    expect((await put(run.http, id, { execution_mode: 'interactive' })).body.code).toBe('OPERATOR_ONLY');
    expect((await run.http.get(`/profile-layers/hosted_default/${id}`)).status).toBe(404);
  });
});
