import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { Refusals } from './support/bad-input';
import { callTool, connectMcp } from './support/mcp-client';
import { fuzzSeed, seededRandom } from './support/random';
import { sprintClient } from './support/sprint-client';

/**
 * Bad input to every sprint route and tool: never a 5xx, every refusal a 4xx
 * with a `detail` (an isError result with a detail for tools), and nothing
 * stored or changed. The generator is seeded (BATON_FUZZ_SEED replays another set).
 */
const SEED = fuzzSeed(20241123);

const WRONG_TYPES: unknown[] = [null, true, 0, -1, 3.5, 1e308, [], ['a'], {}, { nested: [null] }];
const NASTY = [
  '',
  ' ',
  '\u0000',
  'nul\u0000x',
  '\u0007bell',
  '\u001b[31m',
  "' OR '1'='1",
  '; DROP TABLE sprint_items; --',
  '../../etc/passwd',
  '\ud800',
  '%',
  '__proto__',
  'x'.repeat(5000),
];
// ('..' and '' are left out: fetch resolves them into other, valid paths before sending.)
const BAD_REFS = [' ', 'UPPER-CASE', 'has space', 'a/b', '-leading', 'x'.repeat(81), 'é-accent', '%00', "'; --", '00000000-0000-0000-0000-00000000000g'];
const BAD_IDS = ['nope', '123', `${randomUUID()}x`, 'x'.repeat(300), "' OR 1=1 --"];
const BAD_DATES = ['tomorrow', '2030-13-45', '2030-02-30T25:00:00Z', '1e308', '', 'null'];
const BAD_RESOURCES: unknown[] = [
  'file:a.ts',
  [''],
  ['nokind'],
  ['file:'],
  ['file:/'],
  ['FILE:a.ts'],
  ['file:a\u0000.ts'],
  [7],
  [null],
  Array.from({ length: 51 }, (_, i) => `file:f${i}.ts`),
  ['x'.repeat(1025)],
  ['9kind:a'],
];

function badFieldValues(field: string): unknown[] {
  switch (field) {
    case 'title':
      return [...WRONG_TYPES, '', '   ', 'bell\u0007', 'x'.repeat(501)];
    case 'version':
    case 'group':
    case 'track':
    case 'wave':
    case 'sprint_name':
    case 'human_id':
    case 'to_version':
      return [...WRONG_TYPES.filter((v) => v !== null), '', '  ', 'tab\there', 'x'.repeat(101)];
    case 'notes':
    case 'reason':
      return [...WRONG_TYPES.filter((v) => v !== null), 'nul\u0000', 'x'.repeat(20_001)];
    case 'depends_on':
      return [...WRONG_TYPES.filter((v) => v !== null), ...BAD_REFS];
    case 'failure_mode':
      return [...WRONG_TYPES, 'halt', 'STOP'];
    case 'priority':
      return [...WRONG_TYPES, 'critical', 'HIGH'];
    case 'milestone_type':
      return [...WRONG_TYPES, 'epic'];
    case 'blocker_kind':
      return [...WRONG_TYPES.filter((v) => v !== null), 'soft'];
    case 'deferred_until':
      return [...WRONG_TYPES.filter((v) => v !== null), ...BAD_DATES];
    case 'touches_resources':
      return [null, ...BAD_RESOURCES];
    case 'required_notes':
    case 'prospect_bypass':
      return [null, 2, -1, 'yes', '1', [], {}];
    case 'force':
    case 'provisional':
      return [null, 'true', 1, [], {}];
    case 'task_id':
    case 'session_id':
      return [...WRONG_TYPES.filter((v) => v !== null), ...BAD_IDS];
    case 'claimant':
      return [...WRONG_TYPES.filter((v) => v !== null), 'robot', 'AI'];
    case 'limit':
      return [null, 0, -1, 3.5, 10_001, 'x', true, [], {}];
    case 'offset':
      return [null, -1, 3.5, 'x', true, [], {}];
    case 'status':
      return [...WRONG_TYPES, 'done', 'in_progress', 'finished', ''];
    default:
      return WRONG_TYPES;
  }
}

interface Probe {
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  label: string;
}

describe.each(eachBackend())('sprint routes and tools refuse bad input on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    // Hundreds of tool calls: the hosted per-token MCP rate limit is raised for this suite.
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '100000' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('REST: 4xx with detail, never 5xx, nothing written', async () => {
    const rng = seededRandom(SEED);
    const api = sprintClient(run);
    const projectId = await api.project('Fuzz Sprint');
    const session = await api.session(projectId);
    const item = await api.item(projectId, { title: 'Anchor item for fuzzing' });
    const base = `/projects/${projectId}`;
    const itemPath = `${base}/sprint-items/${item.id}`;
    const before = JSON.stringify((await run.http.get(`${base}/sprint-items`)).body);

    const createValid = { title: 'Valid fuzz title', version: 'v1', force: true };
    const createFields = [
      'title',
      'version',
      'group',
      'human_id',
      'depends_on',
      'failure_mode',
      'touches_resources',
      'force',
      'track',
      'wave',
      'priority',
      'blocker_kind',
      'deferred_until',
      'required_notes',
      'milestone_type',
      'prospect_bypass',
      'sprint_name',
      'notes',
    ];
    const patchFields = [
      'title',
      'version',
      'status',
      'failure_mode',
      'priority',
      'required_notes',
      'milestone_type',
      'prospect_bypass',
      'touches_resources',
      'force',
      'notes',
      'depends_on',
      'deferred_until',
      'group',
      'track',
    ];
    const probes: Probe[] = [];
    const json = (method: string, path: string, body: unknown, label: string) => probes.push({ method, path, body, label });

    for (const field of createFields)
      for (const v of badFieldValues(field)) json('POST', `${base}/sprint-items`, { ...createValid, [field]: v }, `create ${field}=${String(v).slice(0, 20)}`);
    json('POST', `${base}/sprint-items`, { version: 'v1' }, 'create without title');
    json('POST', `${base}/sprint-items`, { title: 'No version at all' }, 'create without version');
    for (const key of ['id', 'status', 'slug', 'project_id', 'stall_count', 'claimed_by_session_id', 'Title', ''])
      json('POST', `${base}/sprint-items`, { ...createValid, [key]: 'x' }, `create unknown ${key}`);
    for (const field of patchFields) for (const v of badFieldValues(field)) json('PATCH', itemPath, { [field]: v }, `patch ${field}=${String(v).slice(0, 20)}`);
    json('PATCH', itemPath, { slug: 'new-slug' }, 'patch slug');
    json('PATCH', itemPath, { depends_on: item.id }, 'patch self dependency');
    for (const field of ['task_id', 'notes', 'provisional', 'session_id'])
      for (const v of badFieldValues(field)) json('POST', `${itemPath}/complete`, { [field]: v }, `complete ${field}`);
    for (const action of ['fail', 'skip'])
      for (const field of ['reason', 'session_id']) for (const v of badFieldValues(field)) json('POST', `${itemPath}/${action}`, { [field]: v }, `${action} ${field}`);
    for (const v of [undefined, ...badFieldValues('to_version')]) json('POST', `${itemPath}/push`, v === undefined ? {} : { to_version: v }, `push to_version=${String(v)}`);
    for (const field of ['session_id', 'claimant'])
      for (const v of badFieldValues(field)) {
        json('POST', `${itemPath}/claim`, { session_id: session.id, [field]: v }, `claim ${field}`);
        json('POST', `${base}/sprint-items/claim`, { session_id: session.id, [field]: v }, `claim next ${field}`);
      }
    json('POST', `${itemPath}/claim`, {}, 'claim without session');
    json('POST', `${itemPath}/claim`, { session_id: randomUUID() }, 'claim unknown session');
    json('POST', `${itemPath}/release`, { session_id: session.id }, 'release unclaimed');
    for (const v of badFieldValues('session_id')) json('POST', `${itemPath}/release`, { session_id: v }, 'release bad session');
    for (const v of [...badFieldValues('title'), undefined]) json('POST', `${itemPath}/subtasks`, v === undefined ? { owner: 'ai' } : { title: v }, 'subtask title');
    for (const v of [...WRONG_TYPES, 'robot']) json('POST', `${itemPath}/subtasks`, { title: 'Sub', owner: v }, 'subtask owner');
    for (const v of [
      ...WRONG_TYPES.filter((w) => !(Array.isArray(w) && w.every((x) => typeof x === 'string'))),
      [''],
      ['a\u0000'],
      Array.from({ length: 101 }, () => 'a.ts'),
      ['x'.repeat(1025)],
    ])
      json('POST', `${itemPath}/prospect`, { locations: v }, 'prospect locations');
    for (const v of [...WRONG_TYPES, 'claim', 'CREATE']) json('POST', `${base}/sprint-batch`, { op: v, items: [{}] }, `batch op=${String(v)}`);
    for (const v of [...WRONG_TYPES, [1], [null], [[]]]) json('POST', `${base}/sprint-batch`, { op: 'create', items: v }, 'batch items');
    for (const op of ['create', 'update', 'complete', 'fail', 'skip', 'push', 'delete']) {
      json('POST', `${base}/sprint-batch`, { op, items: [{ item_id: item.id, title: 7, to_version: 7, notes: 7, reason: 7, bogus: 1 }] }, `batch ${op} bad item`);
    }
    for (const v of badFieldValues('version')) json('POST', `${base}/sprint/assign-waves`, { version: v }, 'waves version');
    json('POST', `${base}/sprint/assign-waves`, { versions: ['v1'] }, 'waves unknown field');
    for (const v of [...WRONG_TYPES, 'paused', '']) json('PUT', `${base}/sprint-tracks/lane`, { state: v }, `track state ${String(v)}`);

    const gets = [
      ...['finished', 'done,,pending', 'ACTIVE', '', 'pending;drop'].map((s) => `${base}/sprint-items?status=${encodeURIComponent(s)}`),
      `${base}/sprint-items?status=pending&status=done`,
      ...['0', '-1', '10001', '1.5', 'x'].map((l) => `${base}/sprint-items?limit=${l}`),
      `${base}/sprint-items?offset=-1`,
      `${base}/sprint-items?colour=red`,
      `${base}/sprint/pending_count?version=${encodeURIComponent('x'.repeat(101))}`,
      `${base}/sprint/pending_count?status=pending`,
      ...BAD_IDS.map((id) => `${base}/sprint/test_coverage_expected?session_id=${encodeURIComponent(id)}`),
      ...['', 'nokind', 'file:', 'file:/', '%00', 'x'.repeat(1200)].map((r) => `${base}/resources/sprint-items?resource=${encodeURIComponent(r)}`),
      `${base}/resources/sprint-items`,
      `${base}/resources/sprint-items?resource=file:a.ts&status=nope`,
      ...['-wave', 'wave 1', 'x'.repeat(101), '%00'].map((w) => `${base}/wave-summary/${encodeURIComponent(w)}`),
      `${base}/wave-summary/${randomUUID()}`,
      ...['0', '501', 'x'].map((l) => `${base}/reconcile?limit=${l}`),
    ];
    for (const path of gets) probes.push({ method: 'GET', path, label: `GET ${path.slice(base.length)}` });
    for (const ref of BAD_REFS) {
      const p = `${base}/sprint-items/${encodeURIComponent(ref)}`;
      probes.push({ method: 'GET', path: p, label: `GET ref ${ref.slice(0, 20)}` }, { method: 'DELETE', path: p, label: `DELETE ref ${ref.slice(0, 20)}` });
      json('PATCH', p, { notes: 'x' }, `PATCH ref ${ref.slice(0, 20)}`);
      json('POST', `${p}/complete`, {}, `complete ref ${ref.slice(0, 20)}`);
    }
    for (const id of BAD_IDS) {
      const p = `/projects/${encodeURIComponent(id)}`;
      probes.push({ method: 'GET', path: `${p}/sprint-items`, label: `bad project ${id}` });
      json('POST', `${p}/sprint-items`, createValid, `create in bad project ${id}`);
      json('POST', `${p}/sprint-batch`, { op: 'create', items: [createValid] }, `batch in bad project ${id}`);
    }
    json('POST', `/projects/${randomUUID()}/sprint-items`, createValid, 'create in unknown project');
    json('POST', `/projects/${randomUUID()}/sprint-batch`, { op: 'create', items: [createValid] }, 'batch in unknown project');
    for (const raw of ['{', '[]', '"x"', '42', 'null', '{"title": "x",}', '[{"title":"x","version":"v1"}]']) {
      for (const path of [`${base}/sprint-items`, itemPath, `${base}/sprint-batch`, `${itemPath}/claim`])
        probes.push({ method: path === itemPath ? 'PATCH' : 'POST', path, raw, label: `raw ${raw} to ${path.slice(base.length)}` });
    }
    // A few random mixtures of bad fields.
    for (let i = 0; i < 60; i++) {
      const body: Record<string, unknown> = { ...createValid };
      const field = rng.pick(createFields);
      body[field] = rng.pick(badFieldValues(field));
      body[rng.pick(['title', 'version'])] = rng.pick(NASTY.filter((n) => n.trim() === '' || /[\u0000-\u001f]/.test(n)));
      json('POST', `${base}/sprint-items`, body, `mixture ${i}`);
    }

    const refusals = new Refusals();
    for (let i = 0; i < probes.length; i += 8) {
      await Promise.all(
        probes.slice(i, i + 8).map(async (probe) => {
          const res = probe.raw !== undefined ? await run.http.send(probe.method, probe.path, probe.raw) : await run.http.send(probe.method, probe.path, probe.body);
          refusals.http(res, probe.label);
        }),
      );
    }
    expect(refusals.failures).toEqual([]);
    expect(probes.length).toBeGreaterThan(500);
    expect(JSON.stringify((await run.http.get(`${base}/sprint-items`)).body)).toBe(before);
    expect((await run.http.get(`${base}/sprint-tracks`)).body).toEqual([]);
  }, 300_000);

  test('MCP: every sprint tool answers bad arguments with an isError result carrying a detail', async () => {
    const api = sprintClient(run);
    const projectId = await api.project('Fuzz Sprint Tools');
    const session = await api.session(projectId);
    const item = await api.item(projectId, { title: 'Anchor for tool fuzzing' });
    const before = JSON.stringify((await run.http.get(`/projects/${projectId}/sprint-items`)).body);
    const client = await connectMcp(run.testApp.url, run.token, 'http', 'sprint,sprint_planning');
    const failures: string[] = [];
    try {
      const names = [
        'add_sprint_item',
        'add_subtask',
        'assign_sprint_waves',
        'claim_sprint_item',
        'complete_sprint_item',
        'delete_sprint_item',
        'fail_sprint_item',
        'find_sprint_items_by_resource',
        'get_sprint_item',
        'get_sprint_pending_count',
        'get_test_coverage_expected',
        'get_wave_summary',
        'list_sprint_items',
        'list_sprint_tracks',
        'prospect_sprint_item',
        'push_sprint_item',
        'reconcile_sprint',
        'release_sprint_item',
        'set_sprint_track',
        'skip_sprint_item',
        'sprint_batch',
        'update_sprint_item',
      ];
      const tools = (await client.listTools()).tools.filter((t) => names.includes(t.name));
      expect(tools.map((t) => t.name).sort()).toEqual([...names].sort());
      const good: Record<string, unknown> = {
        project_id: projectId,
        item_id: item.id,
        session_id: session.id,
        parent_id: item.id,
        title: 'Fuzzed title',
        version: 'v1',
        to_version: 'v2',
        wave_id: 'wave-1',
        track: 'lane',
        state: 'deferred',
        op: 'create',
        items: [{ title: 'x', version: 'v1' }],
        locations: ['a.ts'],
        resource: 'file:a.ts',
      };
      for (const tool of tools) {
        const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        const props = Object.keys(schema.properties ?? {});
        const base = Object.fromEntries((schema.required ?? []).map((k) => [k, good[k]]));
        const cases: Record<string, unknown>[] = [{ ...base, unexpected_field: 1 }, ...(schema.required ?? []).map((k) => ({ ...base, [k]: undefined }))];
        for (const prop of props) for (const v of badFieldValues(prop).slice(0, 6)) cases.push({ ...base, [prop]: v });
        for (const k of ['project_id', 'item_id', 'parent_id', 'session_id']) if (props.includes(k)) cases.push({ ...base, [k]: 'not-an-id x' });
        for (const args of cases) {
          const clean = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
          if (tool.name === 'assign_sprint_waves' && Object.keys(clean).length === 1) continue;
          const result = await callTool(client, tool.name, clean);
          if (!result.isError || typeof result.structured?.detail !== 'string') {
            // Optional fields that accept null (clearing) are fine; only a call that changed something is a failure.
            if (!result.isError && JSON.stringify(clean).includes('null')) continue;
            failures.push(`${tool.name} ${JSON.stringify(clean).slice(0, 140)} -> ${result.text.slice(0, 140)}`);
          }
        }
      }
    } finally {
      await client.close();
    }
    expect(failures).toEqual([]);
    expect(JSON.stringify((await run.http.get(`/projects/${projectId}/sprint-items`)).body)).toBe(before);
  }, 300_000);
});
