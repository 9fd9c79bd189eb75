import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp } from './support/mcp-client';
import { sprintClient } from './support/sprint-client';
import { tenantClient } from './support/tenant-client';

const SPEC_FIELDS = [
  'id',
  'project_id',
  'version',
  'title',
  'status',
  'item_group',
  'human_id',
  'notes',
  'depends_on',
  'failure_mode',
  'milestone_type',
  'track',
  'wave',
  'priority',
  'blocker_kind',
  'deferred_until',
  'touches_resources',
  'parent_id',
  'owner',
  'required_notes',
  'slug',
  'nickname',
  'sprint_name',
  'prospect_bypass',
  'stall_count',
  'pushed_to',
  'task_id',
  'claimed_at',
  'completed_at',
  'added_at',
];

describe.each(eachBackend())('sprint items on %s', (_name, backend) => {
  let run: RunningBackend;
  let api: ReturnType<typeof sprintClient>;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_HUMAN_ID: 'ada', SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    api = sprintClient(run);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('POST sprint-items answers 201 with all 29 fields of the spec, defaults filled, slug and nickname from the title', async () => {
    const projectId = await api.project('Fields');
    const res = await run.http.post(`/projects/${projectId}/sprint-items`, {
      title: 'Fix the login redirect loop on Safari',
      version: 'v1.4',
      group: 'auth',
      touches_resources: ['file:./src//auth/login.ts', 'service:auth-api'],
    });
    expect(res.status).toBe(201);
    for (const field of SPEC_FIELDS) expect(res.body).toHaveProperty(field);
    expect(res.body).toMatchObject({
      project_id: projectId,
      version: 'v1.4',
      status: 'pending',
      item_group: 'auth',
      group: 'auth',
      human_id: 'ada',
      failure_mode: 'continue',
      milestone_type: 'task',
      priority: 'normal',
      blocker_kind: null,
      touches_resources: ['file:src/auth/login.ts', 'service:auth-api'],
      required_notes: 0,
      prospect_bypass: 0,
      stall_count: 0,
      slug: 'login-redirect-loop-safari',
      nickname: 'login-redirect',
      claimed_at: null,
      completed_at: null,
    });
    expect(new Date(res.body.added_at).toISOString()).toBe(res.body.added_at);
    expect((await api.get(projectId, res.body.id)).body).toEqual(res.body);
  });

  test('add_sprint_item takes the full parameter set', async () => {
    const projectId = await api.project('Full Set');
    const dep = await api.item(projectId, { title: 'Groundwork first' });
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const deferred = '2031-02-03T04:05:06.000Z';
      const added = await callTool(client, 'add_sprint_item', {
        project_id: projectId,
        title: 'Ship the billing page',
        version: 'v2',
        group: 'billing',
        track: 'payments',
        wave: 'wave-3',
        priority: 'urgent',
        blocker_kind: 'manual',
        deferred_until: deferred,
        touches_resources: ['file:src/billing.ts'],
        required_notes: true,
        milestone_type: 'milestone',
        depends_on: dep.nickname,
        failure_mode: 'stop',
        prospect_bypass: 1,
        sprint_name: 'Sprint 12',
        notes: 'Needs the new price table.',
        human_id: 'grace',
      });
      expect(added.isError).toBe(false);
      expect(added.value).toMatchObject({
        track: 'payments',
        wave: 'wave-3',
        priority: 'urgent',
        blocker_kind: 'manual',
        deferred_until: deferred,
        required_notes: 1,
        milestone_type: 'milestone',
        depends_on: dep.id,
        failure_mode: 'stop',
        prospect_bypass: 1,
        sprint_name: 'Sprint 12',
        notes: 'Needs the new price table.',
        human_id: 'grace',
        item_group: 'billing',
      });
      const listed = await callTool(client, 'list_sprint_items', { project_id: projectId, version: 'v2' });
      expect(listed.value.map((i: { id: string }) => i.id)).toEqual([added.value.id]);
      const got = await callTool(client, 'get_sprint_item', { project_id: projectId, item_id: added.value.slug });
      expect(got.value.id).toBe(added.value.id);
    } finally {
      await client.close();
    }
  });

  test('near-duplicate titles: "Fix login redirect bug" vs "fix login-redirect bug" is 409; force: true is 201; a done item with the same title does not block', async () => {
    const projectId = await api.project('Duplicates');
    const first = await api.item(projectId, { title: 'Fix login redirect bug' });
    const dup = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'fix login-redirect bug', version: 'v1' });
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ code: 'DUPLICATE_TITLE', existing_item_id: first.id, existing_status: 'pending', overlap: 1 });
    expect(dup.body.detail).toMatch(/near-duplicates pending item "Fix login redirect bug"/);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const viaTool = await callTool(client, 'add_sprint_item', { project_id: projectId, title: 'Login redirect bug fix', version: 'v1' });
      expect(viaTool.structured).toMatchObject({ code: 'DUPLICATE_TITLE', existing_item_id: first.id });
    } finally {
      await client.close();
    }
    const forced = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'fix login-redirect bug', version: 'v1', force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.slug).toBe('login-redirect-bug-2');
    // In progress blocks too; once both are finished, the same title is free again.
    const s = await api.session(projectId);
    await api.claim(projectId, first.id, { session_id: s.id });
    expect((await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Fix login redirect bug', version: 'v1' })).body.existing_status).toBeDefined();
    await run.http.post(`/projects/${projectId}/sprint-items/${first.id}/complete`, { session_id: s.id });
    await run.http.post(`/projects/${projectId}/sprint-items/${forced.body.id}/skip`, {});
    const again = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Fix login redirect bug', version: 'v1' });
    expect(again.status).toBe(201);
    // A title sharing under 60 % of the shorter title's words is not a duplicate.
    expect((await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Login page copy review', version: 'v1' })).status).toBe(201);
    // Filler words (the, of, fix, add, ...) are not counted: these pairs are different work.
    await api.item(projectId, { title: 'Launch the beta' });
    expect((await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Email the beta testers', version: 'v1' })).status).toBe(201);
    await api.item(projectId, { title: 'Fix signup crash' });
    expect((await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Fix checkout crash', version: 'v1' })).status).toBe(201);
    const list = (await run.http.get(`/projects/${projectId}/sprint-items`)).body as { title: string }[];
    expect(list.filter((i) => i.title.toLowerCase().replace('-', ' ') === 'fix login redirect bug')).toHaveLength(3);
  });

  test('slug and nickname are unique per project and address the item wherever an id can', async () => {
    const projectId = await api.project('Identifiers');
    const otherProject = await api.project('Identifiers Elsewhere');
    const a = await api.item(projectId, { title: 'Refactor the session cache' });
    const b = await api.item(projectId, { title: 'Refactor the session cache', force: true });
    const c = await api.item(otherProject, { title: 'Refactor the session cache' });
    const d = await api.item(projectId, { title: 'To do' });
    expect([a.slug, b.slug, c.slug]).toEqual(['session-cache', 'session-cache-2', 'session-cache']);
    expect(a.nickname).toBe('session-cache');
    expect(b.nickname).toBe('session-cache-2');
    expect(d.slug).toMatch(/^item-[0-9a-f]{8}$/);
    expect(d.nickname).toMatch(/^[a-z]+-[a-z]+$/);
    for (const ref of [a.id, a.slug, a.nickname, a.id.toUpperCase()]) expect((await api.get(projectId, ref)).body.id).toBe(a.id);
    expect((await api.get(projectId, b.nickname)).body.id).toBe(b.id);
    const patched = await run.http.patch(`/projects/${projectId}/sprint-items/${b.slug}`, { notes: 'second copy' });
    expect(patched.body).toMatchObject({ id: b.id, notes: 'second copy' });
    // The slug stays when the title changes: links and habits keep working.
    const renamed = await run.http.patch(`/projects/${projectId}/sprint-items/${a.nickname}`, { title: 'Rewrite the session store' });
    expect(renamed.body).toMatchObject({ title: 'Rewrite the session store', slug: 'session-cache' });
    const dep = await api.item(projectId, { title: 'Needs the cache first', depends_on: a.slug });
    expect(dep.depends_on).toBe(a.id);
    expect((await api.get(projectId, 'no-such-thing')).status).toBe(404);
    expect((await api.get(otherProject, a.id)).status).toBe(404);
    expect((await api.get(otherProject, c.slug)).body.id).toBe(c.id);
  });

  test('GET sprint-items lists most urgent then oldest, filtered by status (one, several, active, terminal) and version', async () => {
    const projectId = await api.project('Listing');
    const low = await api.item(projectId, { title: 'Alpha cleanup', priority: 'low' });
    const urgent = await api.item(projectId, { title: 'Bravo outage', priority: 'urgent' });
    const done = await api.item(projectId, { title: 'Charlie shipped', version: 'v2' });
    await run.http.post(`/projects/${projectId}/sprint-items/${done.id}/complete`, {});
    const ids = async (q = '') => ((await run.http.get(`/projects/${projectId}/sprint-items${q}`)).body as { id: string }[]).map((i) => i.id);
    expect(await ids()).toEqual([urgent.id, done.id, low.id]);
    expect(await ids('?status=pending')).toEqual([urgent.id, low.id]);
    expect(await ids('?status=done,pending')).toEqual([urgent.id, done.id, low.id]);
    expect(await ids('?status=active')).toEqual([urgent.id, low.id]);
    expect(await ids('?status=terminal')).toEqual([done.id]);
    expect(await ids('?version=v2')).toEqual([done.id]);
    expect(await ids('?limit=1&offset=1')).toEqual([done.id]);
    expect((await run.http.get(`/projects/${projectId}/sprint-items?status=finished`)).body.detail).toMatch(/status must be one or more of/);
    expect((await run.http.get(`/projects/${randomUUID()}/sprint-items`)).status).toBe(404);
  });

  test('PATCH changes only the given fields; status only to pending, todo or indeterminate; in progress needs force', async () => {
    const projectId = await api.project('Patching');
    const item = await api.item(projectId, { title: 'Tune the query planner', track: 'perf', deferred_until: '2030-01-01T00:00:00.000Z' });
    const patched = await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, {
      notes: 'see issue in the tracker',
      group: 'db',
      human_id: 'grace',
      touches_resources: ['file:db/planner.sql'],
      prospect_bypass: 1,
      status: 'todo',
      priority: 'high',
      track: null,
      deferred_until: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Tune the query planner',
      notes: 'see issue in the tracker',
      item_group: 'db',
      human_id: 'grace',
      touches_resources: ['file:db/planner.sql'],
      prospect_bypass: 1,
      status: 'todo',
      priority: 'high',
      track: null,
      deferred_until: null,
    });
    for (const status of ['done', 'failed', 'skipped', 'pushed', 'in_progress', 'provisional_complete']) {
      const refused = await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { status });
      expect({ status, code: refused.body.code, http: refused.status }).toEqual({ status, code: 'STATUS_NOT_PATCHABLE', http: 400 });
    }
    expect((await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { status: 'indeterminate' })).body.status).toBe('indeterminate');

    const s = await api.session(projectId, { name: 'busy' });
    await api.claim(projectId, item.id, { session_id: s.id });
    const busy = await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { notes: 'changed under a worker' });
    expect(busy).toMatchObject({ status: 409, body: { code: 'ITEM_IN_PROGRESS', claimed_by_session_id: s.id } });
    const forced = await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { status: 'pending', force: true });
    expect(forced.body).toMatchObject({ status: 'pending', claimed_at: null, claimed_by_session_id: null });

    // A finished item is reopened by a PATCH back to pending: its completion stamp goes.
    await run.http.post(`/projects/${projectId}/sprint-items/${item.id}/push`, { to_version: 'v9' });
    const reopened = await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { status: 'pending' });
    expect(reopened.body).toMatchObject({ status: 'pending', completed_at: null, pushed_to: null });
    expect((await run.http.patch(`/projects/${projectId}/sprint-items/${item.id}`, { title: null })).body.detail).toMatch(/title must be a string/);
  });

  test('depends_on and parent_id name items of the same project: unknown or foreign is 404, itself is 400, a cycle is 409', async () => {
    const projectId = await api.project('Links');
    const elsewhere = await api.project('Links Elsewhere');
    const foreign = await api.item(elsewhere, { title: 'Foreign work' });
    const a = await api.item(projectId, { title: 'Alpha step' });
    const b = await api.item(projectId, { title: 'Bravo step', depends_on: a.id });
    const c = await api.item(projectId, { title: 'Charlie step', depends_on: b.id });
    const unknown = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Orphan', version: 'v1', depends_on: randomUUID() });
    expect(unknown).toMatchObject({ status: 404, body: { code: 'SPRINT_ITEM_NOT_FOUND' } });
    expect(unknown.body.detail).toMatch(/^depends_on: /);
    expect((await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Cross', version: 'v1', depends_on: foreign.id })).status).toBe(404);
    const self = await run.http.patch(`/projects/${projectId}/sprint-items/${a.id}`, { depends_on: a.slug });
    expect(self).toMatchObject({ status: 400, body: { code: 'SELF_REFERENCE' } });
    const cycle = await run.http.patch(`/projects/${projectId}/sprint-items/${a.id}`, { depends_on: c.id });
    expect(cycle.status).toBe(409);
    expect(cycle.body).toMatchObject({ code: 'DEPENDENCY_CYCLE', cycle: ['alpha-step', 'charlie-step', 'bravo-step', 'alpha-step'] });
    expect(cycle.body.detail).toBe('dependency cycle: alpha-step -> charlie-step -> bravo-step -> alpha-step');
    expect((await api.get(projectId, a.id)).body.depends_on).toBeNull();
    expect((await run.http.post(`/projects/${projectId}/sprint-items/${foreign.id}/subtasks`, { title: 'Sub of foreign' })).status).toBe(404);
  });

  test('pending_count, reverse lookup by resource, and test_coverage_expected', async () => {
    const projectId = await api.project('Queries');
    const s = await api.session(projectId);
    const tests = await api.item(projectId, { title: 'Parser edge cases', touches_resources: ['file:test/parser.spec.ts'], prospect_bypass: 1 });
    const docs = await api.item(projectId, { title: 'Document the parser', touches_resources: ['file:docs/parser.md', 'file:./src/parser.ts'], prospect_bypass: 1 });
    const done = await api.item(projectId, { title: 'Old parser work', touches_resources: ['file:src/parser.ts'], version: 'v0' });
    await run.http.post(`/projects/${projectId}/sprint-items/${done.id}/complete`, {});
    expect((await run.http.get(`/projects/${projectId}/sprint/pending_count`)).body).toEqual({
      pending_count: 2,
      by_status: { todo: 0, pending: 2, in_progress: 0, indeterminate: 0, provisional_complete: 0 },
      version: null,
    });
    expect((await run.http.get(`/projects/${projectId}/sprint/pending_count?version=v0`)).body.pending_count).toBe(0);

    const byFile = await run.http.get(`/projects/${projectId}/resources/sprint-items?resource=${encodeURIComponent('file:src//parser.ts')}`);
    expect(byFile.body.map((i: { id: string }) => i.id).sort()).toEqual([docs.id, done.id].sort());
    const activeOnly = await run.http.get(`/projects/${projectId}/resources/sprint-items?resource=file:src/parser.ts&status=active`);
    expect(activeOnly.body.map((i: { id: string }) => i.id)).toEqual([docs.id]);
    expect((await run.http.get(`/projects/${projectId}/resources/sprint-items?resource=file:nothing.ts`)).body).toEqual([]);
    expect((await run.http.get(`/projects/${projectId}/resources/sprint-items?resource=no-kind`)).status).toBe(400);

    const none = await run.http.get(`/projects/${projectId}/sprint/test_coverage_expected`);
    expect(none.body).toEqual({ expected: false, reason: 'no item is in progress', items: [] });
    await api.claim(projectId, docs.id, { session_id: s.id });
    const docsOnly = await run.http.get(`/projects/${projectId}/sprint/test_coverage_expected?session_id=${s.id}`);
    expect(docsOnly.body).toMatchObject({ expected: false, items: [{ id: docs.id, expected: false }] });
    await api.claim(projectId, tests.id, { session_id: s.id });
    const withTests = await run.http.get(`/projects/${projectId}/sprint/test_coverage_expected`);
    expect(withTests.body.expected).toBe(true);
    expect(withTests.body.reason).toMatch(/parser-edge-cases: it touches a test file/);
    // The project asking for tests makes any code work expect them.
    const plain = await api.item(projectId, { title: 'Speed up the tokenizer' });
    const other = await api.session(projectId);
    await api.claim(projectId, plain.id, { session_id: other.id });
    expect((await run.http.get(`/projects/${projectId}/sprint/test_coverage_expected?session_id=${other.id}`)).body.expected).toBe(false);
    await run.http.patch(`/projects/${projectId}/settings`, { executor_config: { test_min: 1 } });
    const required = await run.http.get(`/projects/${projectId}/sprint/test_coverage_expected?session_id=${other.id}`);
    expect(required.body).toMatchObject({ expected: true });
    expect(required.body.reason).toMatch(/test_min/);
  });

  test('DELETE answers 204, then 404; subtasks become top-level items and dependents lose the dependency', async () => {
    const projectId = await api.project('Deleting');
    const parent = await api.item(projectId, { title: 'Parent to delete' });
    const sub = (await run.http.post(`/projects/${projectId}/sprint-items/${parent.id}/subtasks`, { title: 'Orphaned subtask' })).body;
    const dependent = await api.item(projectId, { title: 'Dependent item', depends_on: parent.id });
    const del = await run.http.delete(`/projects/${projectId}/sprint-items/${parent.slug}`);
    expect(del.status).toBe(204);
    expect((await run.http.delete(`/projects/${projectId}/sprint-items/${parent.id}`)).status).toBe(404);
    expect((await api.get(projectId, parent.id)).status).toBe(404);
    expect((await api.get(projectId, sub.id)).body.parent_id).toBeNull();
    expect((await api.get(projectId, dependent.id)).body.depends_on).toBeNull();
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(client, 'delete_sprint_item', { project_id: projectId, item_id: sub.id })).value).toEqual({ deleted: sub.id });
    } finally {
      await client.close();
    }
    // Deleting the project removes its items.
    await run.http.delete(`/projects/${projectId}`);
    expect((await api.get(projectId, dependent.id)).status).toBe(404);
  });
});

describe.each(hostedBackend())('sprint items across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("another tenant's item ids answer 404 on every route and tool, and nothing of theirs changes", async () => {
    const api = sprintClient(run);
    const projectId = await api.project('Private Sprint');
    const item = await api.item(projectId, { title: 'Secret roadmap item', touches_resources: ['file:src/secret.ts'], wave: 'wave-1' });
    const other = await tenantClient(run.testApp, 'intruder');
    const intruder = other.http;
    const theirs = (await intruder.post('/projects', { name: 'Intruder Sprint' })).body.id;
    const paths = [projectId, theirs].flatMap((p) => [
      ['GET', `/projects/${p}/sprint-items/${item.id}`],
      ['PATCH', `/projects/${p}/sprint-items/${item.id}`, { notes: 'x' }],
      ['DELETE', `/projects/${p}/sprint-items/${item.id}`],
      ['POST', `/projects/${p}/sprint-items/${item.id}/complete`, {}],
      ['POST', `/projects/${p}/sprint-items/${item.id}/fail`, {}],
      ['POST', `/projects/${p}/sprint-items/${item.id}/skip`, {}],
      ['POST', `/projects/${p}/sprint-items/${item.id}/push`, { to_version: 'v2' }],
      ['POST', `/projects/${p}/sprint-items/${item.id}/subtasks`, { title: 'sneaky' }],
      ['POST', `/projects/${p}/sprint-items/${item.id}/prospect`, { locations: ['a.ts'] }],
      ['POST', `/projects/${p}/sprint-batch`, { op: 'complete', items: [{ item_id: item.id }] }],
      ['POST', `/projects/${p}/sprint-items`, { title: 'Linked', version: 'v1', depends_on: item.id }],
    ]);
    for (const [method, path, body] of paths as [string, string, unknown][]) {
      const res = await intruder.send(method, path, body);
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 404 });
    }
    for (const path of [
      'sprint-items',
      'sprint/pending_count',
      'sprint/test_coverage_expected',
      'resources/sprint-items?resource=file:src/secret.ts',
      'wave-summary/wave-1',
      'sprint-tracks',
      'reconcile',
    ]) {
      expect({ path, status: (await intruder.get(`/projects/${projectId}/${path}`)).status }).toEqual({ path, status: 404 });
    }
    expect((await intruder.get(`/projects/${theirs}/resources/sprint-items?resource=file:src/secret.ts`)).body).toEqual([]);
    const client = await connectMcp(run.testApp.url, other.token);
    try {
      for (const [tool, args] of [
        ['get_sprint_item', { project_id: theirs, item_id: item.id }],
        ['complete_sprint_item', { project_id: theirs, item_id: item.id }],
        ['update_sprint_item', { project_id: theirs, item_id: item.id, notes: 'x' }],
        ['list_sprint_items', { project_id: projectId }],
        ['add_subtask', { project_id: theirs, parent_id: item.id, title: 'sneaky' }],
      ] as [string, Record<string, unknown>][]) {
        const result = await callTool(client, tool, args);
        expect({ tool, error: result.isError, code: result.structured?.code }).toEqual({
          tool,
          error: true,
          code: tool === 'list_sprint_items' ? 'PROJECT_NOT_FOUND' : 'SPRINT_ITEM_NOT_FOUND',
        });
      }
    } finally {
      await client.close();
    }
    const mine = (await api.get(projectId, item.id)).body;
    expect(mine).toMatchObject({ status: 'pending', notes: null });
  });
});
