import { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { adminHeaders } from './support/admin';
import { RunningBackend } from './support/backends';
import { expressRoutes } from './support/routes';
import { fuzzedBackends, leakIn, startFuzzWorlds, tally, Worlds } from './support/fuzz-worlds';
import { fuzzSeed, Random, seededRandom, seedFor } from './support/random';
import { misleadingRefusal } from './support/bad-input';
import { Expectation, JsonSchema, mutated, objectMutations, schemaOfClass, seededUuid, TOO_DEEP, validObject, ValueSource } from './support/schema-inputs';

/**
 * Every REST route of the running application, found through Nest's own route
 * metadata (and checked against Express's router, so no route is missed), is
 * sent requests generated from its input classes: valid ones with real ids,
 * then one field, query parameter or path segment at a time broken (wrong
 * types, null, lone surrogates, control characters, huge strings, deep
 * nesting, unknown and missing fields), and ids of the other tenant. No answer
 * is a 5xx, every 4xx is `{"detail": ...}`, a broken field is refused by name,
 * and no answer shows the other tenant's data.
 *
 * Seeded: the summary line names the seed; BATON_FUZZ_SEED=<n> replays a set.
 */

const SEED = fuzzSeed(20261125);
const CONCURRENCY = 8;
const HUGE = 70_000;
/** Routes that remove or close what they are pointed at: never given the home world's real ids, so the others keep theirs. */
const DESTRUCTIVE = /\/close$|\/retire$|\/deprecate$|\/move$|\/archive-oldest$|\/replace-all$/;
/** The streams (the MCP SSE transport, a session's live task log): a GET holds the connection open, it is read for its status only. */
const STREAMS = new Set(['GET /mcp/sse', 'GET /projects/:project_id/sessions/:session_id/tasks/live']);
/** Routes that answer 500 on purpose (the operator's error test), left out. */
const FAILS_ON_PURPOSE = new Set(['GET /admin/__error_test']);
/** Routes that take a project's webhook token in place of the workspace's credentials. */
const WEBHOOK_ROUTES = new Set(['POST /projects/:project_id/events']);

interface Route {
  method: string;
  path: string;
  params?: JsonSchema;
  query?: JsonSchema;
  body?: JsonSchema;
  /** The body is taken as any JSON (no input class). */
  freeBody: boolean;
}

function joinPath(...parts: string[]): string {
  const path = `/${parts.filter((p) => p && p !== '/').join('/')}`.replace(/\/+/g, '/');
  return path.length > 1 ? path.replace(/\/$/, '') : path;
}

/** Every route, with the schemas of its input classes, read from the controllers' metadata. */
function discoverRoutes(app: INestApplication): Route[] {
  const discovery = app.get(DiscoveryService, { strict: false });
  const scanner = app.get(MetadataScanner, { strict: false });
  const routes: Route[] = [];
  for (const wrapper of discovery.getControllers()) {
    const controller = wrapper.metatype as (new () => unknown) | null;
    if (!controller) continue;
    const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
    const prototype = controller.prototype as Record<string, object>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (path === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const types = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as unknown[];
      const route: Route = { method, path: '', freeBody: false };
      for (const [key, arg] of Object.entries(args)) {
        const kind = Number(key.split(':')[0]);
        const schema = schemaOfClass(types[arg.index]);
        if (kind === 3) {
          if (schema) route.body = schema;
          else route.freeBody = true;
        } else if (kind === 4 && schema) route.query = schema;
        else if (kind === 5 && schema) route.params = schema;
      }
      for (const p of Array.isArray(path) ? path : [path]) routes.push({ ...route, path: joinPath(base, p) });
    }
  }
  return routes;
}

// ---------------------------------------------------------------- probes

interface Probe {
  route: Route;
  label: string;
  path: string;
  query: [string, string][];
  body?: string;
  expect: Expectation;
  /** The field a refusal must name. */
  field?: string;
  /** The request names the other world's object: the answer must not show its data (and self-hosted must refuse it). */
  foreign?: boolean;
  /** A wrong type or the field left out: the refusal must say so (see misleadingRefusal). */
  typeError?: boolean;
}

const BAD_SEGMENTS = ['nope', '123', '%00', '%ED%A0%80', '%', '..%2f..%2fetc', 'x'.repeat(300), '%F0%9F%98%80', "'%20OR%201=1"];

function encodePath(route: Route, params: Record<string, unknown>): string {
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (typeof value === 'string' && value.startsWith('raw:')) return value.slice(4);
    return encodeURIComponent(String(value));
  });
}

function queryPairs(query: Record<string, unknown>): [string, string][] {
  return Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x): [string, string] => [k, String(x)]) : [[k, String(v)]]));
}

function probesFor(route: Route, rng: Random, worlds: Worlds): Probe[] {
  const workspace = route.path.startsWith('/workspace');
  const destructive = route.method === 'DELETE' || DESTRUCTIVE.test(route.path);
  const src: ValueSource = {
    rng,
    marker: worlds.home.marker,
    // A destructive route is pointed at ids that exist nowhere, so the home world's records survive.
    idFor: (field) => (destructive ? seededUuid(rng) : worlds.home.idFor(field, workspace)),
  };
  const foreignIdFor = (field: string) => worlds.foreign.idFor(field, workspace);
  const params = route.params ? validObject({ ...route.params, required: Object.keys(route.params.properties ?? {}) }, src) : {};
  const query = route.query ? validObject(route.query, src) : {};
  const body = route.body ? validObject(route.body, src) : route.freeBody ? { session_id: src.idFor('session_id'), note: worlds.home.marker } : undefined;
  // Self-hosted, the other world is another project of the same tenant: its records may only not show under this project.
  const homeProjectNamed = 'project_id' in params || (body as { project_id?: unknown } | undefined)?.project_id === worlds.home.ids.project;
  const countsAsForeign = (field: string) => worlds.hosted || (field !== 'project_id' && homeProjectNamed);
  const probes: Probe[] = [];
  const add = (label: string, p: Record<string, unknown>, q: Record<string, unknown>, b: unknown, expect: Expectation, extra: Partial<Probe> = {}) =>
    probes.push({
      route,
      label,
      path: encodePath(route, p),
      query: queryPairs(q),
      body: b === undefined ? undefined : JSON.stringify(b),
      expect,
      ...extra,
    });

  add('valid input', params, query, body, 'any');

  for (const [name, schema] of Object.entries(route.params?.properties ?? {})) {
    const isUuid = schema.format === 'uuid';
    const foreignId = foreignIdFor(name);
    if (foreignId) {
      // Hosted: the other tenant's id names nothing here. Self-hosted: another project's record is not found under this project.
      const foreign = countsAsForeign(name);
      add(`${name} of the other world`, { ...params, [name]: foreignId }, query, body, isUuid && foreign ? 'refused' : 'any', { foreign });
    }
    if (isUuid) {
      add(`${name} a random UUID`, { ...params, [name]: seededUuid(rng) }, query, body, 'any');
      add(`${name} not a UUID`, { ...params, [name]: rng.pick(['nope', '123', `${seededUuid(rng)}0`]) }, query, body, 'names', { field: name });
    }
    add(`${name} bad segment`, { ...params, [name]: `raw:${rng.pick(BAD_SEGMENTS)}` }, query, body, 'any');
  }

  const queryProps = route.query?.properties ?? {};
  for (const [name, schema] of Object.entries(queryProps)) {
    const s = schema.oneOf?.[0] ?? schema;
    if (s.type === 'number' || s.type === 'integer') add(`?${name} not a number`, params, { ...query, [name]: 'abc' }, body, 'names', { field: name, typeError: true });
    if (s.enum) add(`?${name} outside the enum`, params, { ...query, [name]: 'not-one-of-them' }, body, 'names', { field: name });
    if (s.format === 'uuid') add(`?${name} not a UUID`, params, { ...query, [name]: 'nope' }, body, 'names', { field: name });
    if (s.type === 'boolean') add(`?${name} not a boolean`, params, { ...query, [name]: 'maybe' }, body, 'names', { field: name, typeError: true });
    const nasty = rng.pick(['x'.repeat(5000), 'a\u0001b', "' OR 1=1 --", '%_\\', '😀', '']);
    add(`?${name} hostile text`, params, { ...query, [name]: nasty }, body, 'any');
    add(`?${name} given twice`, params, { ...query, [name]: ['1', '2'] }, body, 'any');
  }
  if (route.query) add('unknown query parameter', params, { ...query, surprise: '1' }, body, 'refused');

  if (route.body && body && typeof body === 'object') {
    const valid = body as Record<string, unknown>;
    for (const m of objectMutations(route.body, src, { hugeLength: HUGE, foreignIdFor })) {
      add(`${m.field}: ${m.label}`, params, query, mutated(valid, m), m.expect, { field: m.field, foreign: m.foreign && countsAsForeign(m.field), typeError: m.typeError });
    }
    add('unknown field', params, query, { ...valid, surprise_field: 1 }, 'refused');
    add('body an array', params, query, [valid], 'refused');
    add('body nested 70 deep', params, query, { ...valid, deep: TOO_DEEP }, 'refused');
  }
  if (route.freeBody) {
    add('free body with a lone surrogate', params, query, { text: 'a\ud800', session_id: 'nope' }, 'any');
    add('free body nested 70 deep', params, query, TOO_DEEP, 'refused');
    add('free body not an object', params, query, rng.pick([[], 'text', 42, null]), 'any');
  }
  return probes;
}

// ---------------------------------------------------------------- sending and judging

interface Outcome {
  status: number;
  text: string;
  body?: { detail?: unknown; error?: unknown };
}

/**
 * POST .../events takes the home project's webhook token and nothing else, and the fuzzing of GET
 * .../webhook-token replaces it: a probe refused for its token is sent again with the new one.
 */
async function send(base: string, token: string | undefined, probe: Probe, admin: Record<string, string>, webhook: (stale?: string) => Promise<string>): Promise<Outcome> {
  if (!WEBHOOK_ROUTES.has(`${probe.route.method} ${probe.route.path}`)) return sendOnce(base, token, probe, admin);
  let hook = await webhook();
  for (let attempt = 1; ; attempt++) {
    const outcome = await sendOnce(base, token, probe, { ...admin, 'x-webhook-token': hook });
    if (outcome.status !== 401 || attempt === 5) return outcome;
    hook = await webhook(hook);
  }
}

async function sendOnce(base: string, token: string | undefined, probe: Probe, admin: Record<string, string>): Promise<Outcome> {
  const qs = probe.query.length ? `?${new URLSearchParams(probe.query).toString()}` : '';
  // The admin cookie (and Baton's Origin) too, so the admin routes' inputs are reached past their guard.
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream', ...admin };
  if (token) headers.authorization = `Bearer ${token}`;
  if (probe.body !== undefined) headers['content-type'] = 'application/json';
  const stream = STREAMS.has(`${probe.route.method} ${probe.route.path}`);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 15_000);
  try {
    const res = await fetch(base + probe.path + qs, { method: probe.route.method, headers, body: probe.body, signal: abort.signal });
    if (stream && res.status === 200) {
      abort.abort();
      return { status: res.status, text: '' };
    }
    const text = await res.text();
    let body: Outcome['body'];
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: res.status, text, body };
  } catch (error) {
    return { status: 0, text: `no answer: ${(error as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}

function judge(probe: Probe, outcome: Outcome, worlds: Worlds, baseline: string | undefined): string | undefined {
  const { status, body } = outcome;
  if (status === 0) return outcome.text;
  if (status >= 500) return `server error ${status}`;
  const jsonRpc = probe.route.path.startsWith('/mcp') && body !== undefined && typeof body === 'object' && body !== null && 'error' in body;
  const detail = typeof body?.detail === 'string' && body.detail !== '' ? body.detail : undefined;
  if (status >= 400 && !detail && !jsonRpc) return `${status} without a JSON {detail}`;
  // When the generated input was refused already, the same refusal explains a broken field as well.
  const named = detail?.includes(probe.field!) || (baseline !== undefined && detail === baseline);
  if (probe.expect === 'names' && (status !== 400 || !named)) return `expected 400 naming ${probe.field}`;
  if (probe.expect === 'refused' && status < 400) return `accepted (${status}), expected a refusal`;
  const misleading = probe.typeError && detail ? misleadingRefusal(detail, probe.field!) : undefined;
  if (misleading) return `a wrong type or missing field answered "${misleading}"`;
  // Hosted: nothing the other tenant stored may show. Self-hosted: a record of another project may not show under this one.
  if (worlds.hosted || (probe.foreign && status < 300)) {
    const leak = leakIn(outcome.text, worlds.foreign);
    if (leak) return leak;
  }
  return undefined;
}

/** The first lines of the stack logged under a 500's error_id, so that a failure shows where it came from. */
function loggedStack(logs: string[], outcome: Outcome): string {
  const errorId = (outcome.body as { error_id?: unknown } | undefined)?.error_id;
  if (typeof errorId !== 'string') return '';
  const line = logs.find((l) => l.includes(errorId));
  if (!line) return ' (its error_id is in no log line)';
  const stack = (JSON.parse(line) as { stack?: string }).stack ?? '';
  return ` | logged: ${stack.split('\n').slice(0, 4).join(' < ')}`;
}

interface Run {
  base: string;
  token: string | undefined;
  /** The admin password's cookie and Baton's Origin. */
  admin: Record<string, string>;
  /** The home project's webhook token; a new one when `stale` is the current one. */
  webhook: (stale?: string) => Promise<string>;
  worlds: Worlds;
  logs: string[];
  /** The detail of the 400 a route answered to its generated valid input, when it did. */
  refusedBaseline: Map<Route, string>;
}

async function runAll(run: Run, probes: Probe[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) {
        const probe = probes[next++];
        const outcome = await send(run.base, run.token, probe, run.admin, run.webhook);
        const detail = typeof outcome.body?.detail === 'string' ? outcome.body.detail : undefined;
        if (probe.label === 'valid input' && outcome.status === 400 && detail) run.refusedBaseline.set(probe.route, detail);
        const problem = judge(probe, outcome, run.worlds, run.refusedBaseline.get(probe.route));
        if (problem) failures.push(`${probe.route.method} ${probe.route.path} [${probe.label}] -> ${problem}: ${outcome.text.slice(0, 240)}${loggedStack(run.logs, outcome)}`);
      }
    }),
  );
  return failures;
}

// ---------------------------------------------------------------- suites

describe.each(fuzzedBackends())('every REST route, fuzzed from its input classes, on %s', (name, backend) => {
  let run: RunningBackend;
  let worlds: Worlds;
  let routes: Route[];

  beforeAll(async () => {
    ({ run, worlds } = await startFuzzWorlds(backend, name, SEED));
    routes = discoverRoutes(run.testApp.app);
  }, 60_000);
  afterAll(async () => {
    await run?.stop();
  });

  test('the routes found from Nest metadata are every route Express serves', () => {
    const found = new Set(routes.map((r) => `${r.method} ${r.path}`));
    expect(expressRoutes(run.testApp.app).filter((r) => !found.has(r))).toEqual([]);
    expect(routes.length).toBeGreaterThan(100);
  });

  test('generated requests to every route: no 5xx, every 4xx a {detail}, broken fields refused by name, no data of the other world', async () => {
    // Writes first and destructive routes last, so that the reads see records the writes made and nothing is removed early.
    const ordered = [...routes].filter((r) => !FAILS_ON_PURPOSE.has(`${r.method} ${r.path}`)).sort((a, b) => rank(a) - rank(b));
    const probes = ordered.flatMap((r) => probesFor(r, seededRandom(seedFor(SEED, `${r.method} ${r.path}`)), worlds));
    const started = Date.now();
    const admin = await adminHeaders(run.testApp);
    const mint = async () => (await run.http.get(`/projects/${worlds.home.ids.project}/webhook-token`)).body.token as string;
    let current = mint();
    const webhook = async (stale?: string) => {
      if (stale !== undefined && (await current) === stale) current = mint();
      return current;
    };
    const r: Run = { base: run.testApp.url, token: run.token, admin, webhook, worlds, logs: run.testApp.logs, refusedBaseline: new Map() };
    // The valid inputs first: a route whose generated input is refused anyway explains its other refusals with the same detail.
    const failures = [
      ...(await runAll(
        r,
        probes.filter((p) => p.label === 'valid input'),
      )),
      ...(await runAll(
        r,
        probes.filter((p) => p.label !== 'valid input'),
      )),
    ];
    // eslint-disable-next-line no-console -- the seed and counts are what a reader needs to replay a failure
    console.log(
      `fuzz-surface REST on ${name}: seed ${SEED}, ${routes.length} routes (${r.refusedBaseline.size} refused their generated input), ${probes.length} requests in ${Date.now() - started} ms: ${tally(failures)} (replay: BATON_FUZZ_SEED=${SEED})`,
    );
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
  }, 180_000);

  test('null where a field has no meaning for it is refused, naming the field (it once reached the database as a 500)', async () => {
    const { project, session } = worlds.home.ids;
    const p = `/projects/${project}`;
    const rows: [string, string, unknown, string][] = [
      ['PATCH', `/sessions/${session}`, { name: null }, 'name'],
      ['POST', `${p}/messages/receive`, { agent: null }, 'agent'],
      ['POST', `${p}/messages/ack`, { agent: null, ack_through: 0 }, 'agent'],
      ['POST', `${p}/messages`, { body: 'hello', to_session_id: null }, 'to_session_id'],
      ['POST', `${p}/messages`, { body: 'hello', to_agent: null }, 'to_agent'],
      ['POST', `${p}/handoff/accept`, { content: null }, 'content'],
      ['POST', `${p}/handoff/accept`, { token: null }, 'token'],
    ];
    const answers = await Promise.all(rows.map(async ([method, path, body]) => (await run.http.send(method, path, body)) as { status: number; body: { detail?: string } }));
    expect(answers.map((a) => [a.status, a.body.detail])).toEqual(rows.map(([, , , field]) => [400, expect.stringContaining(field)]));
  });

  test('values the fuzzing found taken in silence or failing are refused, naming the field', async () => {
    const p = `/projects/${worlds.home.ids.project}`;
    const rows: [string, string, unknown, string][] = [
      // An array was taken for the object and stored as {}.
      ['PATCH', `${p}/settings`, { executor_config: [] }, 'executor_config'],
      // No whole number a database holds: SQLite failed on it (500).
      ['GET', `${p}/sprint-items?offset=1e308`, undefined, 'offset'],
      ['GET', `${p}/sprint-items?offset=${'9'.repeat(20)}`, undefined, 'offset'],
    ];
    const answers = await Promise.all(rows.map(async ([method, path, body]) => (await run.http.send(method, path, body)) as { status: number; body: { detail?: string } }));
    expect(answers.map((a) => [a.status, a.body.detail])).toEqual(rows.map(([, , , field]) => [400, expect.stringContaining(field)]));
  });

  test('the service still answers normally afterwards', async () => {
    expect((await run.http.get(`/projects/${worlds.home.ids.project}`)).status).toBe(200);
    expect((await run.http.get('/health/deep')).status).toBe(200);
  });
});

function rank(route: Route): number {
  if (route.method === 'DELETE' || DESTRUCTIVE.test(route.path)) return 2;
  return route.method === 'GET' ? 1 : 0;
}
