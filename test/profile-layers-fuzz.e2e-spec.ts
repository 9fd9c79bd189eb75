import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { HttpResult } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { fuzzSeed, Random, seededRandom } from './support/random';

/**
 * Generated bad input for every profile-layer route and tool: never a 5xx,
 * every refusal a JSON `{detail}` (an `isError` result over MCP), and nothing
 * stored by a refused write. Seeded: BATON_FUZZ_SEED=<n> replays another set.
 */
const SEED = fuzzSeed(20241123);

const NASTY: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  "'; DROP TABLE profile_layers; --",
  '../../etc/passwd',
  'nul\u0000inside',
  '\u202eevil',
  '😀'.repeat(40),
  'x'.repeat(5000),
  [],
  ['a', 1, null],
  {},
  { nested: { deep: [null, { x: 1 }] } },
  { __proto__: { polluted: true } },
  { constructor: { prototype: { polluted: true } } },
];
const FIELD_NAMES = [
  'max_pinned_decisions',
  'hitl_auto_answer',
  'auto_worktrees',
  'require_merge_approval',
  'code_intel_enabled',
  'execution_mode',
  'executor_config',
  'tool_priority_map',
  'capability_manifest_ref',
  'claim_verification_mode',
  'hosted_default_id',
  'executor_config.test_min',
  '__proto__',
  'constructor',
  'unknown_field',
  '',
];
const SCOPE_TYPES = ['hosted_default', 'workspace', 'user', 'project', 'session', 'Workspace', 'global', '', '..', 'x'.repeat(300)];

function randomValue(rng: Random): unknown {
  const roll = rng.int(5);
  if (roll === 0) return { [rng.pick(['test_min', 'repo_path', 'test_command', 'max_parallel', 'extra'])]: rng.pick(NASTY) };
  if (roll === 1) return { [String(rng.pick(NASTY)).slice(0, 200)]: rng.pick(NASTY) };
  return rng.pick(NASTY);
}

function randomFields(rng: Random): unknown {
  if (rng.int(6) === 0) return rng.pick(NASTY);
  const out: Record<string, unknown> = {};
  for (let i = 0, n = 1 + rng.int(3); i < n; i++) out[rng.pick(FIELD_NAMES)] = randomValue(rng);
  return out;
}

function randomBody(rng: Random): unknown {
  if (rng.int(8) === 0) return rng.pick(NASTY);
  const body: Record<string, unknown> = { fields: randomFields(rng) };
  if (rng.int(2)) body.reset_fields = rng.int(2) ? [rng.pick(FIELD_NAMES)] : rng.pick(NASTY);
  if (rng.int(2)) body.expected_revision = rng.pick([...NASTY, 0, 1, 2 ** 40]);
  if (rng.int(3) === 0) body.override_reason = rng.pick(NASTY);
  if (rng.int(4) === 0) body.surprise = 1;
  return body;
}

function expectRefusedCleanly(what: string, res: HttpResult) {
  expect({ what, status: res.status < 500 }).toEqual({ what, status: true });
  if (res.status >= 400) expect({ what, detail: typeof res.body?.detail }).toEqual({ what, detail: 'string' });
}

describe.each(eachBackend())('profile layer routes and tools under bad input on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  let sessionId: string;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MCP_RATE_LIMIT: '1000000' });
    projectId = (await run.http.post('/projects', { name: 'Fuzzed profiles' })).body.id;
    sessionId = (await run.http.post('/sessions/register', { project_id: projectId })).body.id;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('PUT with generated bodies at every scope: 4xx with detail or a clean save, never 5xx', async () => {
    const rng = seededRandom(SEED);
    const scopes = [
      ['workspace', 'singleton'],
      ['user', 'fuzz-user'],
      ['project', projectId],
      ['session', sessionId],
      ['hosted_default', 'global'],
    ];
    for (let i = 0; i < 150; i++) {
      const [scope, id] = rng.pick(scopes);
      const body = randomBody(rng);
      const res = await run.http.send('PUT', `/profile-layers/${scope}/${id}`, body);
      expectRefusedCleanly(`case ${i} PUT ${scope} ${JSON.stringify(body)?.slice(0, 200)}`, res);
    }
  });

  test('malformed scopes, ids, queries and bodies on every route', async () => {
    const rng = seededRandom(SEED + 1);
    const ids = ['singleton', projectId, randomUUID(), 'not-a-uuid', '%00', '%2e%2e', encodeURIComponent('\u202e'), 'a'.repeat(300), encodeURIComponent("' OR 1=1 --")];
    const requests: [string, string, unknown?][] = [];
    for (let i = 0; i < 60; i++) {
      const scope = encodeURIComponent(rng.pick(SCOPE_TYPES));
      const id = rng.pick(ids);
      requests.push(
        ['GET', `/profile-layers/${scope}/${id}`],
        ['DELETE', `/profile-layers/${scope}/${id}`],
        ['POST', `/profile-layers/${scope}/${id}/clone`, { target_scope_type: rng.pick(SCOPE_TYPES), target_scope_id: rng.pick([...ids, ...NASTY]) }],
        ['POST', `/profile-layers/${id}/activate`],
        ['POST', `/profile-layers/${id}/retire`],
        ['GET', `/profile-layers/${id}/revisions?limit=${encodeURIComponent(String(rng.pick(NASTY)))}`],
        ['GET', `/profile-layers?scope_type=${scope}&project_id=${id}`],
        ['GET', `/projects/${rng.pick([projectId, id])}/effective-profile?session_id=${rng.pick(ids)}&user_id=${encodeURIComponent(String(rng.pick(NASTY)))}`],
        ['PATCH', `/projects/${projectId}/settings`, { [rng.pick(FIELD_NAMES)]: randomValue(rng), override_reason: rng.pick(NASTY) }],
      );
    }
    requests.push(['PUT', '/profile-layers/workspace/singleton', '{"fields": {'], ['PUT', '/profile-layers/workspace/singleton', '[]']);
    for (const [method, path, body] of requests) {
      const res = await run.http.send(method, path, body);
      expectRefusedCleanly(`${method} ${path} ${JSON.stringify(body)?.slice(0, 120)}`, res);
    }
  });

  test('tools with generated arguments: isError with a detail or a result, never an internal error', async () => {
    const rng = seededRandom(SEED + 2);
    const client = await connectMcp(run.testApp.url, run.token);
    const tools = [
      'list_profile_layers',
      'get_profile_layer',
      'save_profile_layer',
      'clone_profile_layer',
      'activate_profile_layer',
      'deprecate_profile_layer',
      'retire_profile_layer',
      'reset_profile_layer',
      'get_profile_layer_revisions',
      'get_effective_profile',
    ];
    try {
      for (let i = 0; i < 120; i++) {
        const tool = rng.pick(tools);
        const args: Record<string, unknown> = {
          scope_type: rng.pick([...SCOPE_TYPES, ...NASTY]),
          scope_id: rng.pick(['singleton', projectId, sessionId, 'global', ...NASTY]),
          project_id: rng.pick([projectId, randomUUID(), ...NASTY]),
        };
        if (tool === 'save_profile_layer') Object.assign(args, randomBody(rng));
        if (tool === 'clone_profile_layer')
          Object.assign(args, { source_scope_type: args.scope_type, source_scope_id: args.scope_id, target_scope_type: rng.pick(SCOPE_TYPES), target_scope_id: rng.pick(NASTY) });
        if (rng.int(3) === 0) args.limit = rng.pick(NASTY);
        const result = await callTool(client, tool, args);
        if (result.isError) {
          expect({ tool, args, internal: result.text === 'internal error' || typeof result.structured?.detail !== 'string' }).toEqual({ tool, args, internal: false });
        }
      }
    } finally {
      await client.close();
    }
  });

  test('refused writes store nothing', async () => {
    const rows = (await run.http.get('/profile-layers')).body as { scope_type: string; fields: Record<string, unknown> }[];
    for (const row of rows) {
      for (const value of Object.values(row.fields)) expect(JSON.stringify(value)).not.toMatch(/DROP TABLE|\u0000|etc\/passwd|polluted/);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
