import { randomUUID } from 'node:crypto';
import { backends, RunningBackend } from './support/backends';
import { fuzzSeed, Random, seededRandom, seedFor } from './support/random';

/**
 * Sends a deterministic, generated set of bad inputs to every route of the
 * foundation and checks the service's promises about them: never a 5xx, every
 * 4xx a JSON `{detail}` (JSON-RPC errors on the MCP transport), bad tool
 * arguments never succeed, and nothing is stored or changed.
 *
 * The generator is seeded: a failure names its seed and case, and
 * BATON_FUZZ_SEED=<n> replays another set.
 */

const SEED = fuzzSeed(20241122);
const MCP_ACCEPT = 'application/json, text/event-stream';
const KNOWN_PROJECT_TOOLS = ['create_project', 'get_project', 'rename_project', 'delete_project'];
const CONCURRENCY = 12;

// ---------------------------------------------------------------- generator

const ALPHABET = [
  ...'abcxyzABCXYZ0129',
  ...' -_.~!*\'();:@&=+$,/?#[]%"<>\\^`{|}',
  'ü',
  'é',
  'ß',
  'İ',
  'ﬁ',
  '中',
  '文',
  '😀',
  '👩‍💻',
  '\u0301',
  '\u202e',
  '\ufeff',
  '\u200b',
  '\u00a0',
  '\u0000',
  '\u0001',
  '\u0007',
  '\u001b',
  '\u007f',
  '\t',
  '\n',
  '\r',
];

function randomText(rng: Random, max = 48): string {
  return rng.sample(ALPHABET, 1 + rng.int(max)).join('');
}

/** Values of the wrong JSON type for any string field. */
const WRONG_TYPES: unknown[] = [null, true, false, 0, -1, 3.5, 1e308, [], ['a'], [1, 2], {}, { nested: { deep: [null] } }];

/** Strings a careless server trips over: injection, traversal, odd Unicode, control characters, sheer length. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\t\n',
  "' OR '1'='1",
  "'; DROP TABLE projects; --",
  '" OR ""="',
  '1; SELECT pg_sleep(5); --',
  "%' ESCAPE '\\",
  '\\',
  '%',
  '_',
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '..\\..\\windows',
  '\u0000',
  'nul\u0000inside',
  '\u0007bell',
  '\u001b[31mred',
  'ü',
  '😀'.repeat(50),
  '\u202eevil',
  '\ufeffbom',
  '\ud800',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e999',
  '{{7*7}}',
  '${7*7}',
  '%s%s%s%n',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'x'.repeat(1000),
];

/** Project ids that are not UUIDs (never the id of a real project). */
function badIds(rng: Random, n: number): string[] {
  const uuid = randomUUID();
  return [
    ...NASTY_STRINGS,
    'not-a-uuid',
    uuid.replace(/-/g, ''),
    `{${uuid}}`,
    `${uuid} `,
    `${uuid}0`,
    uuid.slice(0, 35) + 'g',
    uuid.replace(/[0-9]/g, '٣'),
    'z'.repeat(1000),
    ...Array.from({ length: n }, () => randomText(rng)),
  ].filter((id) => id.trim() !== '');
}

/** Names that must be refused: wrong types, empty, too long, control characters. */
function invalidNames(rng: Random, n: number): unknown[] {
  return [
    ...WRONG_TYPES,
    '',
    '   ',
    '\u0000',
    'x'.repeat(201),
    'x'.repeat(100 * 1024),
    ...NASTY_STRINGS.map((s) => `${s}\u0001`),
    ...Array.from({ length: n }, () => (rng.next() < 0.5 ? `${randomText(rng)}\u0007` : `${'y'.repeat(201)}${randomText(rng)}`)),
  ];
}

/** Keys no input class declares. */
const UNKNOWN_KEYS = ['id', 'created_at', 'tenant_id', 'Name', 'name ', 'constructor', 'prototype', '', 'x'.repeat(300)];

/** A path segment: percent-encoded when it can be, otherwise (a lone surrogate) a broken escape. */
function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}

/** Segments sent as they are: broken or tricky percent-encoding. */
const RAW_SEGMENTS = ['%', '%zz', '%E0%A4%A', '%C0%AE%C0%AE', '..%2f..%2f', '%2e%2e', '%00', '%u0041', '%252e', ';', ',', '*', '!'];

function randomQuery(rng: Random): string {
  const pairs = Array.from({ length: 1 + rng.int(4) }, () => {
    const key = rng.pick(['limit', 'name', 'name[]', 'name[a]', '__proto__[x]', 'sessionId', 'a[b][c]', 'tag', segment(randomText(rng, 8))]);
    return `${key}=${segment(rng.pick([...NASTY_STRINGS.slice(0, 20), randomText(rng)]))}`;
  });
  return `?${pairs.join('&')}`;
}

// ---------------------------------------------------------------- probes

interface Probe {
  method: string;
  path: string;
  body?: string | URLSearchParams | FormData;
  headers?: Record<string, string>;
  /** rest: 4xx must be {detail}; mcp: {detail} or a JSON-RPC error is fine. */
  kind: 'rest' | 'mcp';
  /** token: the tenant's token (default); none: no Authorization; forged: a token that does not exist. */
  auth?: 'token' | 'none' | 'forged';
  /** GET /mcp/sse opens an event stream: read the status, then hang up. */
  stream?: boolean;
  /**
   * The input must be refused. Default: true for REST writes (POST, PUT, PATCH,
   * DELETE), which must never answer 2xx to a bad input; set for a tools/call
   * with bad arguments to a known tool, whose result must be an error.
   */
  mustFail?: boolean;
  label: string;
}

interface Context {
  /** Hosted instances refuse a forged token; self-hosted ones take no tokens at all. */
  hosted: boolean;
  anchorId: string;
  tools: { name: string; input_schema: { properties?: Record<string, unknown>; required?: string[] } }[];
}

function json(method: string, path: string, value: unknown, label: string, extra: Partial<Probe> = {}): Probe {
  return {
    kind: 'rest',
    ...extra,
    method,
    path,
    label,
    body: JSON.stringify(value),
    headers: { 'content-type': 'application/json', ...extra.headers },
  };
}

/** Bodies that are not a usable JSON object, whatever the route. */
function brokenBodies(rng: Random, method: string, path: string, kind: Probe['kind'], headers: Record<string, string> = {}): Probe[] {
  const valid = JSON.stringify({ name: 'Would Be Valid', ids: [randomUUID()], url: 'postgres://127.0.0.1:1/x' });
  const truncations = Array.from({ length: 3 }, () => valid.slice(0, 1 + rng.int(valid.length - 1)));
  const raw = [
    '',
    ' ',
    '{',
    '}',
    '{"name"}',
    "{'name': 'x'}",
    '{"name": "x",}',
    '{"name": undefined}',
    '{"name": NaN}',
    '[]',
    '[{"name":"Array"}]',
    '"just a string"',
    '42',
    'null',
    'true',
    '\u0000',
    '{"a":'.repeat(5000),
    ...truncations,
  ];
  const probes: Probe[] = raw.map((body) => ({
    method,
    path,
    body,
    headers: { 'content-type': 'application/json', ...headers },
    kind,
    label: `raw JSON ${JSON.stringify(body.slice(0, 40))}`,
  }));
  const asText = { 'content-type': 'text/plain', ...headers };
  probes.push(
    { method, path, body: valid, headers: asText, kind, label: 'valid JSON sent as text/plain' },
    { method, path, body: new URLSearchParams({ name: 'Form Project', url: 'postgres://127.0.0.1:1/x' }), headers, kind, label: 'urlencoded form' },
    { method, path, body: formData({ name: 'Multipart Project', ids: randomUUID() }), headers, kind, label: 'multipart form' },
    { method, path, body: valid, headers: { 'content-type': 'application/xml', ...headers }, kind, label: 'application/xml' },
    { method, path, body: valid, headers: { 'content-type': 'application/json; charset=utf-16', ...headers }, kind, label: 'json utf-16 charset' },
    { method, path, body: valid, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', ...headers }, kind, label: 'fake gzip' },
    { method, path, body: valid, headers: { 'content-type': 'application/json', 'content-encoding': 'compress', ...headers }, kind, label: 'unknown encoding' },
    {
      method,
      path,
      body: JSON.stringify({ name: 'Huge', padding: 'z'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json', ...headers },
      kind,
      label: '2 MB body',
    },
  );
  return probes;
}

function formData(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
}

/** Odd methods on a path: none of them is a route. */
function oddMethods(path: string, methods: string[]): Probe[] {
  return methods.map((method) => ({ method, path, kind: 'rest', label: `${method} ${path}` }));
}

const GROUPS: [string, (rng: Random, ctx: Context) => Probe[]][] = [
  [
    'GET /projects and odd methods on /projects',
    (rng) => [
      ...Array.from({ length: 15 }, (): Probe => ({ method: 'GET', path: `/projects${randomQuery(rng)}`, kind: 'rest', label: 'query' })),
      ...oddMethods('/projects', ['PUT', 'PATCH', 'OPTIONS', 'HEAD', 'PROPFIND', 'SEARCH', 'PURGE']),
      { method: 'GET', path: '/projects', kind: 'rest', auth: 'forged', label: 'forged token' },
      { method: 'GET', path: '/projects', kind: 'rest', auth: 'none', label: 'no token' },
    ],
  ],
  [
    'POST /projects',
    (rng, ctx) => [
      ...invalidNames(rng, 15).map((name) => json('POST', '/projects', { name }, `name=${describeValue(name)}`)),
      json('POST', '/projects', {}, 'missing name'),
      ...UNKNOWN_KEYS.map((key) => json('POST', '/projects', { name: `Valid ${randomUUID()}`, [key]: 'x' }, `unknown field ${JSON.stringify(key.slice(0, 20))}`)),
      {
        method: 'POST',
        path: '/projects',
        body: `{"name":"Proto ${randomUUID()}","__proto__":{"isAdmin":true}}`,
        headers: { 'content-type': 'application/json' },
        kind: 'rest',
        label: '__proto__ field',
      },
      ...WRONG_TYPES.map((v) => json('POST', '/projects', { name: `Wrapped ${randomUUID()}`, nested: v }, `extra nested=${describeValue(v)}`)),
      ...brokenBodies(rng, 'POST', '/projects', 'rest'),
      { method: 'POST', path: '/projects', kind: 'rest', label: 'no body at all' },
      // Self-hosted takes no tokens, so a forged one is only a bad input on a hosted instance.
      ...(ctx.hosted ? [json('POST', '/projects', { name: `Forged ${randomUUID()}` }, 'forged token', { auth: 'forged' })] : []),
    ],
  ],
  [
    'DELETE /projects',
    (rng) => [
      ...WRONG_TYPES.map((ids) => json('DELETE', '/projects', { ids }, `ids=${describeValue(ids)}`)),
      ...[...WRONG_TYPES, ...rng.sample(badIds(rng, 10), 20)].map((id) => json('DELETE', '/projects', { ids: [randomUUID(), id] }, `ids contains ${describeValue(id)}`)),
      json('DELETE', '/projects', { ids: Array.from({ length: 501 }, () => randomUUID()) }, '501 ids'),
      json('DELETE', '/projects', { ids: [randomUUID()], cascade: true }, 'unknown field'),
      json('DELETE', '/projects', {}, 'missing ids'),
      ...brokenBodies(rng, 'DELETE', '/projects', 'rest'),
      { method: 'DELETE', path: '/projects', kind: 'rest', label: 'no body' },
    ],
  ],
  [
    'GET /projects/by-name/{name}',
    (rng) => [
      ...[...NASTY_STRINGS, ...Array.from({ length: 15 }, () => randomText(rng)), 'n'.repeat(201), 'n'.repeat(4000)]
        .filter((s) => s !== '')
        .map((name): Probe => ({ method: 'GET', path: `/projects/by-name/${segment(name)}`, kind: 'rest', label: `name=${describeValue(name)}` })),
      ...RAW_SEGMENTS.map((raw): Probe => ({ method: 'GET', path: `/projects/by-name/${raw}`, kind: 'rest', label: `raw segment ${raw}` })),
      ...oddMethods('/projects/by-name/anything', ['POST', 'DELETE', 'PUT']),
    ],
  ],
  [
    'GET and DELETE /projects/{id}',
    (rng) => {
      const ids = badIds(rng, 15);
      return [
        ...ids.map((id): Probe => ({ method: 'GET', path: `/projects/${segment(id)}`, kind: 'rest', label: `GET id=${describeValue(id)}` })),
        ...rng.sample(ids, 25).map((id): Probe => ({ method: 'DELETE', path: `/projects/${segment(id)}`, kind: 'rest', label: `DELETE id=${describeValue(id)}` })),
        ...RAW_SEGMENTS.flatMap((raw): Probe[] => [
          { method: 'GET', path: `/projects/${raw}`, kind: 'rest', label: `GET raw ${raw}` },
          { method: 'DELETE', path: `/projects/${raw}`, kind: 'rest', label: `DELETE raw ${raw}` },
        ]),
        { method: 'DELETE', path: `/projects/${randomUUID()}`, kind: 'rest', label: 'DELETE unknown uuid' },
        { method: 'GET', path: `/projects/${randomUUID()}/`, kind: 'rest', label: 'trailing slash' },
        ...oddMethods(`/projects/${randomUUID()}`, ['PUT', 'PATCH', 'POST']),
      ];
    },
  ],
  [
    'POST /projects/{id}/rename',
    (rng, ctx) => [
      ...rng.sample(badIds(rng, 10), 25).map((id) => json('POST', `/projects/${segment(id)}/rename`, { name: `Renamed ${randomUUID()}` }, `id=${describeValue(id)}`)),
      ...RAW_SEGMENTS.map((raw) => json('POST', `/projects/${raw}/rename`, { name: 'Raw Renamed' }, `raw ${raw}`)),
      ...[...WRONG_TYPES, ...rng.sample(invalidNames(rng, 10), 25)].map((name) => json('POST', `/projects/${ctx.anchorId}/rename`, { name }, `name=${describeValue(name)}`)),
      json('POST', `/projects/${ctx.anchorId}/rename`, {}, 'missing name'),
      ...UNKNOWN_KEYS.map((key) =>
        json('POST', `/projects/${ctx.anchorId}/rename`, { name: `Sneaky ${randomUUID()}`, [key]: 1 }, `unknown field ${JSON.stringify(key.slice(0, 20))}`),
      ),
      ...(ctx.hosted ? [json('POST', `/projects/${ctx.anchorId}/rename`, { name: 'Anchor Stolen' }, 'forged token', { auth: 'forged' })] : []),
      ...brokenBodies(rng, 'POST', `/projects/${ctx.anchorId}/rename`, 'rest'),
      ...oddMethods(`/projects/${ctx.anchorId}/rename`, ['GET', 'PUT', 'DELETE']),
    ],
  ],
  [
    'POST /workspace/connect-db',
    (rng) => [
      ...[...WRONG_TYPES, ...rng.sample(NASTY_STRINGS, 15), ...Array.from({ length: 10 }, () => randomText(rng))].map((url) =>
        json('POST', '/workspace/connect-db', { url }, `url=${describeValue(url)}`),
      ),
      ...[
        'mysql://u:p@h/db',
        'postgres://',
        'postgres:///nohost',
        'postgres://:5432/x',
        'http://127.0.0.1/x',
        'file:///etc/passwd',
        `postgres://${'h'.repeat(2050)}/x`,
        // Refused before any connection: the workspace already holds a project (hosted) or is not hosted.
        'postgres://127.0.0.1:1/x',
        'postgresql://u:p@127.0.0.1:1/x?sslmode=require',
      ].map((url) => json('POST', '/workspace/connect-db', { url }, `url=${url.slice(0, 40)}`)),
      json('POST', '/workspace/connect-db', {}, 'missing url'),
      json('POST', '/workspace/connect-db', { url: 'postgres://127.0.0.1:1/x', schema: 'public' }, 'unknown field'),
      ...brokenBodies(rng, 'POST', '/workspace/connect-db', 'rest'),
      ...oddMethods('/workspace/connect-db', ['GET', 'PUT', 'DELETE']),
    ],
  ],
  ['POST /mcp: envelopes, headers and bodies', (rng) => mcpEnvelopeProbes(rng)],
  ['POST /mcp: tools/call with bad arguments for every tool', (rng, ctx) => mcpToolProbes(rng, ctx)],
  [
    'GET and DELETE /mcp, /mcp/sse',
    (rng) => {
      const sessionIds = ['garbage', '', randomUUID(), 'x'.repeat(1000), "' OR 1=1 --", '%00', segment('ü😀'), 'a&sessionId=b'];
      return [
        { method: 'GET', path: '/mcp', headers: { accept: MCP_ACCEPT }, kind: 'mcp', label: 'GET /mcp' },
        { method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream', 'mcp-session-id': 'garbage' }, kind: 'mcp', label: 'GET /mcp sse accept' },
        { method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': 'garbage' }, kind: 'mcp', label: 'DELETE /mcp' },
        ...oddMethods('/mcp', ['PUT', 'PATCH']).map((p): Probe => ({ ...p, kind: 'mcp' })),
        { method: 'GET', path: '/mcp/sse?sessionId=garbage', kind: 'mcp', stream: true, label: 'GET /mcp/sse?sessionId=garbage' },
        // Self-hosted ignores the token and opens the stream; hosted refuses it with 401.
        { method: 'GET', path: '/mcp/sse', kind: 'mcp', auth: 'forged', stream: true, label: 'GET /mcp/sse forged token' },
        ...sessionIds.flatMap((id): Probe[] => [
          json('POST', `/mcp/sse?sessionId=${id}`, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, `POST sse sessionId=${id.slice(0, 20)}`, { kind: 'mcp' }),
          { method: 'POST', path: `/mcp/sse?sessionId=${id}`, body: '{"broken', headers: { 'content-type': 'application/json' }, kind: 'mcp', label: 'POST sse broken' },
        ]),
        json('POST', '/mcp/sse', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'POST sse without sessionId', { kind: 'mcp' }),
        json('POST', '/mcp/sse?sessionId[]=a', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, 'POST sse sessionId[]', { kind: 'mcp' }),
        ...Array.from({ length: 5 }, () => json('POST', `/mcp/sse${randomQuery(rng)}`, { jsonrpc: '2.0', id: 1, method: 'ping' }, 'POST sse random query', { kind: 'mcp' })),
        { method: 'OPTIONS', path: '/mcp/sse', headers: { origin: 'http://evil.example' }, kind: 'mcp', label: 'OPTIONS sse evil origin' },
        { method: 'OPTIONS', path: '/mcp/sse', headers: { origin: 'null' }, kind: 'mcp', label: 'OPTIONS sse null origin' },
      ];
    },
  ],
  [
    'health, config and documentation routes',
    (rng) =>
      ['/health', '/health/deep', '/config', '/tools', '/mcp/tools-doc', '/mcp/quickstart'].flatMap((path): Probe[] => [
        { method: 'GET', path: `${path}${randomQuery(rng)}`, kind: 'rest', label: 'random query' },
        { method: 'GET', path, headers: { accept: 'application/xml' }, kind: 'rest', label: 'accept xml' },
        { method: 'GET', path, kind: 'rest', auth: 'forged', label: 'forged token' },
        { method: 'GET', path, headers: { authorization: 'Basic Og==' }, kind: 'rest', auth: 'none', label: 'basic auth' },
        { method: 'HEAD', path, kind: 'rest', label: 'HEAD' },
        { method: 'GET', path: `${path}/`, kind: 'rest', label: 'trailing slash' },
        { method: 'GET', path: `${path}/extra/${segment(randomText(rng, 10))}`, kind: 'rest', label: 'extra segments' },
        ...oddMethods(path, ['POST', 'PUT', 'DELETE', 'PATCH']),
        { method: 'POST', path, body: '{"broken', headers: { 'content-type': 'application/json' }, kind: 'rest', label: 'POST broken JSON' },
      ]),
  ],
];

function mcpEnvelopeProbes(rng: Random): Probe[] {
  const h = { accept: MCP_ACCEPT };
  const base = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  const rpc = (value: unknown, label: string, headers: Record<string, string> = h) => json('POST', '/mcp', value, label, { kind: 'mcp', headers });
  const probes: Probe[] = [];
  for (const field of ['jsonrpc', 'id', 'method', 'params'] as const) {
    for (const v of [...WRONG_TYPES, ...rng.sample(NASTY_STRINGS, 6)]) {
      if (field === 'id' && (v === 0 || v === -1 || typeof v === 'string')) continue; // numbers and strings are valid ids
      probes.push(rpc({ ...base, [field]: v }, `${field}=${describeValue(v)}`));
    }
    const { [field]: _omitted, ...rest } = base;
    probes.push(rpc(rest, `without ${field}`));
  }
  for (const method of [
    'resources/list',
    'prompts/list',
    'logging/setLevel',
    'completion/complete',
    'tools/LIST',
    'rpc.discover',
    ...Array.from({ length: 8 }, () => randomText(rng, 20)),
  ]) {
    probes.push(rpc({ ...base, method }, `method=${describeValue(method)}`));
  }
  probes.push(
    rpc({ ...base, extra: { x: 1 } }, 'unknown top-level field'),
    rpc({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 42, capabilities: 'all', clientInfo: null } }, 'initialize with bad params'),
    rpc({ jsonrpc: '2.0', id: 3, method: 'initialize' }, 'initialize without params'),
    rpc({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'create_project', arguments: { name: 7 } } }, 'tools/call as a notification'),
    rpc({ jsonrpc: '2.0', id: 4, result: {} }, 'a response sent as a request'),
    rpc({ jsonrpc: '2.0', id: 5, error: { code: 1, message: 'x' } }, 'an error sent as a request'),
    rpc([], 'empty batch'),
    rpc([base, base], 'batch of two'),
    rpc([1, 'a', null], 'batch of garbage'),
    rpc([[base]], 'nested batch'),
    rpc(base, 'no accept header', {}),
    rpc(base, 'accept json only', { accept: 'application/json' }),
    rpc(base, 'accept sse only', { accept: 'text/event-stream' }),
    rpc(base, 'accept garbage', { accept: '*/*;q=garbage' }),
    rpc(base, 'bad protocol version', { ...h, 'mcp-protocol-version': 'garbage' }),
    rpc(base, 'session id on a stateless endpoint', { ...h, 'mcp-session-id': "' OR 1=1 --" }),
    rpc(base, 'foreign origin', { ...h, origin: 'http://evil.example' }),
    rpc(base, 'null origin', { ...h, origin: 'null' }),
    rpc(base, 'origin that is not a URL', { ...h, origin: '::::' }),
    rpc(base, 'forged token', h),
  );
  probes[probes.length - 1].auth = 'forged';
  probes.push(json('POST', '/mcp', base, 'no token', { kind: 'mcp', headers: h, auth: 'none' }));
  probes.push(...brokenBodies(rng, 'POST', '/mcp', 'mcp', h));
  return probes;
}

function mcpToolProbes(rng: Random, ctx: Context): Probe[] {
  const h = { accept: MCP_ACCEPT };
  let id = 100;
  const call = (params: unknown, label: string, mustFail: boolean) =>
    json('POST', '/mcp', { jsonrpc: '2.0', id: id++, method: 'tools/call', params }, label, { kind: 'mcp', headers: h, mustFail });
  const probes: Probe[] = [];

  // The envelope of tools/call itself.
  for (const name of [...WRONG_TYPES, 'no_such_tool', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'LIST_PROJECTS', ...rng.sample(NASTY_STRINGS, 5)]) {
    probes.push(call({ name, arguments: {} }, `tool name=${describeValue(name)}`, true));
  }
  for (const params of [null, 'x', 42, [], { arguments: {} }]) probes.push(call(params, `params=${describeValue(params)}`, true));

  for (const tool of ctx.tools) {
    if (KNOWN_PROJECT_TOOLS.includes(tool.name)) probes.push(...foundationToolProbes(rng, ctx, tool, call));
    else if (tool.name !== 'list_projects') probes.push(...otherToolProbes(rng, tool, call));
  }
  return probes;
}

type Tool = Context['tools'][number];
type Call = (params: unknown, label: string, mustFail: boolean) => Probe;

/**
 * The project tools: one valid argument set (acting on the anchor project),
 * and variants that each break exactly one thing in it. Every variant must fail;
 * if one did not, the anchor would be renamed or deleted and the last test says so.
 */
function foundationToolProbes(rng: Random, ctx: Context, tool: Tool, call: Call): Probe[] {
  const properties = Object.keys(tool.input_schema.properties ?? {});
  const required = tool.input_schema.required ?? properties;
  const valid: Record<string, unknown> = {};
  for (const p of properties) valid[p] = p === 'project_id' ? ctx.anchorId : p === 'name' ? `Tool Valid ${randomUUID()}` : 'x';
  const badValues = (p: string): unknown[] =>
    p === 'project_id' ? [...WRONG_TYPES, ...rng.sample(badIds(rng, 5), 6)] : p === 'name' ? rng.sample(invalidNames(rng, 10), 15) : WRONG_TYPES;

  const probes: Probe[] = [];
  for (const args of [null, 'x', 42, [], ['a'], true]) probes.push(call({ name: tool.name, arguments: args }, `${tool.name} arguments=${describeValue(args)}`, true));
  for (const p of properties) {
    for (const v of badValues(p)) probes.push(call({ name: tool.name, arguments: { ...valid, [p]: v } }, `${tool.name} ${p}=${describeValue(v)}`, true));
    if (required.includes(p)) {
      const { [p]: _missing, ...rest } = valid;
      probes.push(call({ name: tool.name, arguments: rest }, `${tool.name} without ${p}`, true));
    }
  }
  for (const key of UNKNOWN_KEYS.filter((k) => !properties.includes(k))) {
    probes.push(call({ name: tool.name, arguments: { ...valid, [key]: true } }, `${tool.name} unknown field ${JSON.stringify(key.slice(0, 20))}`, true));
  }
  return probes;
}

/**
 * Any other tool (modules added later; there are over a hundred): three
 * argument sets each, none of which can reach the tool's handler, so nothing
 * runs, waits or writes. Non-object arguments are refused by the transport and
 * a set missing a required argument by the input class: both must fail. A
 * value of the wrong type for one required argument, alone, is checked for
 * crashes only when it is the tool's only required argument (an input class
 * may coerce). Tools without required arguments would run, so they get only
 * the non-object case.
 */
function otherToolProbes(rng: Random, tool: Tool, call: Call): Probe[] {
  const schema = (tool.input_schema.properties ?? {}) as Record<string, { type?: string }>;
  const required = tool.input_schema.required ?? [];
  const nonObject = rng.pick([null, 'x', 42, [], true]);
  const probes = [call({ name: tool.name, arguments: nonObject }, `${tool.name} arguments=${describeValue(nonObject)}`, true)];
  if (required.length === 0) return probes;
  probes.push(call({ name: tool.name, arguments: {} }, `${tool.name} without any argument`, true));
  const typed = required.filter((p) => WRONG_VALUE_BY_TYPE[schema[p]?.type ?? '']);
  if (typed.length > 0) {
    const p = rng.pick(typed);
    const v = rng.pick(WRONG_VALUE_BY_TYPE[schema[p].type as string]);
    probes.push(call({ name: tool.name, arguments: { [p]: v } }, `${tool.name} only ${p}=${describeValue(v)}`, required.length > 1));
  }
  return probes;
}

/** Values whose JSON type is not the declared one (no booleans or empty arrays, which a coercion could turn into a valid value). */
const WRONG_VALUE_BY_TYPE: Record<string, unknown[]> = {
  string: [12345, { nested: 'object' }, [1, 2]],
  number: ['not-a-number', { nested: 'object' }],
  integer: ['not-a-number', { nested: 'object' }, 2.5],
  boolean: [{ nested: 'object' }, 'not-a-boolean'],
  array: ['not-an-array', 12345],
  object: ['not-an-object', 12345],
};

function describeValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...(${text.length})` : text;
}

// ---------------------------------------------------------------- sending and judging

interface Outcome {
  status: number;
  text: string;
  contentType: string;
}

async function send(base: string, probe: Probe, token: string | undefined): Promise<Outcome> {
  const headers: Record<string, string> = {};
  const auth = probe.auth ?? 'token';
  if (auth === 'token' && token) headers.authorization = `Bearer ${token}`;
  if (auth === 'forged') headers.authorization = `Bearer sk_service_${'F'.repeat(43)}`;
  Object.assign(headers, probe.headers);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 15_000);
  try {
    const res = await fetch(base + probe.path, { method: probe.method, headers, body: probe.body, signal: controller.signal });
    const contentType = res.headers.get('content-type') ?? '';
    if (probe.stream) {
      controller.abort();
      return { status: res.status, text: '', contentType };
    }
    return { status: res.status, text: await res.text(), contentType };
  } catch (error) {
    return { status: 0, text: `no response: ${(error as Error).message}`, contentType: '' };
  } finally {
    clearTimeout(timer);
  }
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

function isDetail(body: unknown): boolean {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return typeof detail === 'string' && detail.trim() !== '';
}

function isJsonRpcError(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0 && body.every(isJsonRpcError);
  const error = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null | undefined;
  return error?.jsonrpc === '2.0' && typeof error.error?.code === 'number' && typeof error.error.message === 'string';
}

function isJsonRpcMessage(body: unknown): boolean {
  if (Array.isArray(body)) return body.every(isJsonRpcMessage);
  const message = body as { jsonrpc?: unknown; result?: unknown; error?: unknown } | null | undefined;
  return message?.jsonrpc === '2.0' && (message.result !== undefined || message.error !== undefined);
}

/** What is wrong with the answer to a bad input, or undefined when it is acceptable. */
function judge(probe: Probe, outcome: Outcome): string | undefined {
  const { status, text } = outcome;
  if (status === 0) return text;
  if (status >= 500) return `status ${status}`;
  if (probe.method === 'HEAD' || probe.stream) return undefined;
  const body = parse(text);
  if (status >= 400) {
    if (isDetail(body)) return undefined;
    if (probe.kind === 'mcp' && isJsonRpcError(body)) return undefined;
    return `status ${status} without a JSON {detail}${probe.kind === 'mcp' ? ' or JSON-RPC error' : ''}`;
  }
  if (probe.kind === 'mcp' && probe.path.startsWith('/mcp') && text !== '' && outcome.contentType.includes('json') && !isJsonRpcMessage(body)) {
    return `status ${status} with a body that is not JSON-RPC`;
  }
  const mustFail = probe.mustFail ?? (probe.kind === 'rest' && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(probe.method));
  if (mustFail && probe.kind === 'rest') return `status ${status}: the bad request was accepted`;
  if (mustFail && status < 300) {
    const result = (body as { result?: { isError?: boolean } } | undefined)?.result;
    if (result && result.isError !== true) return `status ${status}: the tool call succeeded`;
  }
  return undefined;
}

async function runAll(base: string, probes: Probe[], token: string | undefined) {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < probes.length) {
      const probe = probes[next++];
      const outcome = await send(base, probe, token);
      const problem = judge(probe, outcome);
      if (problem) {
        failures.push(`${probe.method} ${probe.path.slice(0, 80)} [${probe.label}] -> ${problem}: ${outcome.text.slice(0, 200)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return failures;
}

// ---------------------------------------------------------------- suites

const FUZZED = ['sqlite (self-hosted)', 'postgres (hosted)'];

describe.each(
  backends()
    .filter((b) => FUZZED.includes(b.name))
    .map((b) => [b.name, b] as const),
)('fuzzing every route on %s', (_name, backend) => {
  let run: RunningBackend;
  let ctx: Context;
  let before: Awaited<ReturnType<typeof snapshot>>;

  async function snapshot() {
    const list = await run.http.get('/projects');
    expect(list.status).toBe(200);
    const anchor = await run.http.get(`/projects/${ctx.anchorId}`);
    return { count: (list.body as unknown[]).length, anchor: { status: anchor.status, body: anchor.body } };
  }

  beforeAll(async () => {
    // The bad requests would otherwise hit the hosted MCP limit of 100 per minute and test only the 429.
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000' });
    const anchor = await run.http.post('/projects', { name: 'Fuzz Anchor' });
    expect(anchor.status).toBe(201);
    const tools = await run.http.get('/tools');
    expect(tools.status).toBe(200);
    ctx = { hosted: run.testApp.config.isHosted, anchorId: anchor.body.id, tools: tools.body };
    before = await snapshot();
  });
  afterAll(async () => {
    await run?.stop();
  });

  test.each(GROUPS)('%s: no 5xx, every 4xx explains itself, bad tool arguments never succeed', async (group, generate) => {
    const probes = generate(seededRandom(seedFor(SEED, group)), ctx);
    expect(probes.length).toBeGreaterThan(10);
    const failures = await runAll(run.testApp.url, probes, run.token);
    expect({ seed: SEED, group, sent: probes.length, failures }).toEqual({ seed: SEED, group, sent: probes.length, failures: [] });
  });

  test('the bad requests stored, renamed and deleted nothing', async () => {
    expect(await snapshot()).toEqual(before);
  });

  test('the service still serves normal requests afterwards', async () => {
    const created = await run.http.post('/projects', { name: `After Fuzz ${randomUUID()}` });
    expect(created.status).toBe(201);
    expect((await run.http.delete(`/projects/${created.body.id}`)).status).toBe(204);
    expect((await run.http.get('/health/deep')).status).toBe(200);
  });
});
