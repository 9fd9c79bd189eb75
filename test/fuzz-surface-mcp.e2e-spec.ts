import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RunningBackend } from './support/backends';
import { fuzzedBackends, leakIn, startFuzzWorlds, tally, Worlds } from './support/fuzz-worlds';
import { connectMcp } from './support/mcp-client';
import { ToolRegistry } from '../src/mcp/tool-registry.service';
import { fuzzSeed, Random, seededRandom, seedFor } from './support/random';
import { misleadingRefusal } from './support/bad-input';
import { Expectation, JsonSchema, mutated, objectMutations, seededUuid, validObject, ValueSource } from './support/schema-inputs';

/**
 * Every MCP tool the server lists, called through the SDK's client with
 * arguments generated from the tool's own `inputSchema`: valid ones with real
 * ids, then one argument at a time broken (wrong types, null, lone surrogates,
 * control characters, huge strings, deep nesting, unknown and missing
 * arguments), and ids of the other tenant. Then raw JSON-RPC mistakes a
 * client can make, over HTTP. No answer is an internal error (neither
 * JSON-RPC -32603 nor a tool error with an error_id), a broken argument is
 * refused by name, and no answer shows the other tenant's data.
 *
 * Seeded: the summary line names the seed; BATON_FUZZ_SEED=<n> replays a set.
 */

const SEED = fuzzSeed(20261126);
const CONCURRENCY = 8;
const HUGE = 5_000;
/** Tools that remove or close what they are pointed at: never given the home world's real ids. */
const DESTRUCTIVE = /^(delete|purge|close|retire|deprecate|reset|move|replace|archive)_/;
const INTERNAL_ERROR = -32603;

interface Tool {
  name: string;
  inputSchema: JsonSchema;
}

interface Call {
  tool: string;
  label: string;
  args: Record<string, unknown>;
  expect: Expectation;
  field?: string;
  foreign?: boolean;
  typeError?: boolean;
}

function callsFor(tool: Tool, rng: Random, worlds: Worlds): Call[] {
  const workspace = tool.name.includes('workspace');
  const destructive = DESTRUCTIVE.test(tool.name);
  const src: ValueSource = {
    rng,
    marker: worlds.home.marker,
    idFor: (field) => (destructive ? seededUuid(rng) : worlds.home.idFor(field, workspace)),
  };
  const valid = validObject(tool.inputSchema, src);
  // Self-hosted, the other world is another project of the same tenant: its records may only not show under this project.
  const homeProjectNamed = valid.project_id === worlds.home.ids.project;
  const countsAsForeign = (field: string) => worlds.hosted || (field !== 'project_id' && homeProjectNamed);
  const calls: Call[] = [{ tool: tool.name, label: 'valid arguments', args: valid, expect: 'any' }];
  const foreignIdFor = (field: string) => worlds.foreign.idFor(field, workspace);
  for (const m of objectMutations(tool.inputSchema, src, { hugeLength: HUGE, foreignIdFor })) {
    calls.push({
      tool: tool.name,
      label: `${m.field}: ${m.label}`,
      args: mutated(valid, m),
      expect: m.expect,
      field: m.field,
      foreign: m.foreign && countsAsForeign(m.field),
      typeError: m.typeError,
    });
  }
  calls.push({ tool: tool.name, label: 'unknown argument', args: { ...valid, surprise_field: 1 }, expect: 'refused' });
  return calls;
}

interface ToolOutcome {
  isError: boolean;
  text: string;
  structured?: Record<string, unknown>;
  /** A JSON-RPC error instead of a result. */
  rpcCode?: number;
}

async function invoke(client: Client, call: Call): Promise<ToolOutcome> {
  try {
    const result = (await client.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: 15_000 })) as {
      isError?: boolean;
      content: { type: string; text: string }[];
      structuredContent?: Record<string, unknown>;
    };
    return { isError: Boolean(result.isError), text: result.content[0]?.text ?? '', structured: result.structuredContent };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { isError: true, text: String((error as Error).message), rpcCode: typeof code === 'number' ? code : undefined };
  }
}

function judgeCall(call: Call, outcome: ToolOutcome, worlds: Worlds, baseline: string | undefined): string | undefined {
  if (outcome.rpcCode !== undefined) {
    if (outcome.rpcCode === INTERNAL_ERROR) return 'JSON-RPC internal error';
    // Anything else the SDK raises (for example -32602) is a refusal the client can act on.
    if (call.expect === 'any') return undefined;
    return undefined;
  }
  if (outcome.isError) {
    const detail = outcome.structured?.detail;
    if (typeof detail !== 'string' || detail === '') return 'tool error without a detail';
    if (outcome.structured?.code === 'INTERNAL' || outcome.structured?.error_id !== undefined) return 'internal error';
    const named = detail.includes(call.field ?? '\u0000') || (baseline !== undefined && detail === baseline);
    if (call.expect === 'names' && (outcome.structured?.code !== 'INVALID_INPUT' || !named)) return `refused without naming ${call.field}`;
    const misleading = call.typeError ? misleadingRefusal(detail, call.field!) : undefined;
    if (misleading) return `a wrong type or missing field answered "${misleading}"`;
  } else if (call.expect !== 'any') {
    return 'accepted, expected a refusal';
  }
  if (worlds.hosted || (call.foreign && !outcome.isError)) {
    return leakIn(outcome.text, worlds.foreign);
  }
  return undefined;
}

async function callAll(client: Client, calls: Call[], worlds: Worlds, refused: Map<string, string>, logs: string[]): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < calls.length) {
        const call = calls[next++];
        const outcome = await invoke(client, call);
        const detail = typeof outcome.structured?.detail === 'string' ? outcome.structured.detail : undefined;
        if (call.label === 'valid arguments' && outcome.structured?.code === 'INVALID_INPUT' && detail) refused.set(call.tool, detail);
        const problem = judgeCall(call, outcome, worlds, refused.get(call.tool));
        if (problem) failures.push(`${call.tool} [${call.label}] -> ${problem}: ${outcome.text.slice(0, 240)}${loggedStack(logs, outcome.structured?.error_id)}`);
      }
    }),
  );
  return failures;
}

function loggedStack(logs: string[], errorId: unknown): string {
  if (typeof errorId !== 'string') return '';
  const line = logs.find((l) => l.includes(errorId));
  if (!line) return ' (its error_id is in no log line)';
  return ` | logged: ${((JSON.parse(line) as { stack?: string }).stack ?? '').split('\n').slice(0, 4).join(' < ')}`;
}

// ---------------------------------------------------------------- raw JSON-RPC

/** JSON-RPC messages a careless client sends: each must be answered with a client error, never an internal one. */
function rawMessages(worlds: Worlds): [string, unknown][] {
  const project = worlds.home.ids.project;
  const call = (params: unknown) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
  return [
    ['tools/call without params', { jsonrpc: '2.0', id: 1, method: 'tools/call' }],
    ['params a string', call('get_project')],
    ['params an array', call(['get_project', { project_id: project }])],
    ['params a number', call(5)],
    ['params null', call(null)],
    ['name missing', call({ arguments: { project_id: project } })],
    ['name a number', call({ name: 5, arguments: {} })],
    ['name null', call({ name: null })],
    ['name an array', call({ name: ['get_project'], arguments: { project_id: project } })],
    ['name an object', call({ name: { tool: 'get_project' } })],
    ['name with a lone surrogate', call({ name: 'get_\ud800project' })],
    ['unknown tool', call({ name: 'no_such_tool', arguments: {} })],
    ['arguments a string', call({ name: 'get_project', arguments: 'project_id' })],
    ['arguments an array', call({ name: 'get_project', arguments: [project] })],
    ['arguments a number', call({ name: 'get_project', arguments: 7 })],
    ['arguments null', call({ name: 'get_project', arguments: null })],
    ['arguments with a lone surrogate key', call({ name: 'get_project', arguments: { 'project_\ud800id': project } })],
    ['unknown method', { jsonrpc: '2.0', id: 2, method: 'tools/destroy', params: {} }],
    ['method a number', { jsonrpc: '2.0', id: 3, method: 42 }],
    ['method missing', { jsonrpc: '2.0', id: 4, params: {} }],
    ['jsonrpc version wrong', { jsonrpc: '1.0', id: 5, method: 'tools/list' }],
    ['jsonrpc missing', { id: 6, method: 'tools/list' }],
    ['id an object', { jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' }],
    ['tools/list with params a string', { jsonrpc: '2.0', id: 7, method: 'tools/list', params: 'all' }],
    ['initialize without params', { jsonrpc: '2.0', id: 8, method: 'initialize' }],
    ['initialize with wrong types', { jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: 5, capabilities: 'all', clientInfo: null } }],
    ['a notification with params a string', { jsonrpc: '2.0', method: 'notifications/initialized', params: 'x' }],
    ['an empty batch', []],
    ['a batch of mistakes', [call(null), { jsonrpc: '2.0', id: 10, method: 'nope' }]],
    ['a bare string', 'tools/list'],
    ['null', null],
  ];
}

async function sendRaw(base: string, token: string | undefined, message: unknown): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify(message), signal: AbortSignal.timeout(15_000) });
  return { status: res.status, text: await res.text() };
}

/** Why a raw answer is wrong, or undefined: never a 5xx, never a JSON-RPC internal error or a tool's internal error. */
function judgeRaw(status: number, text: string): string | undefined {
  if (status >= 500) return `server error ${status}`;
  if (text === '') return status < 300 ? undefined : `${status} with an empty body`;
  let body: unknown;
  try {
    body = JSON.parse(text.startsWith('event:') ? text.slice(text.indexOf('data:') + 5) : text);
  } catch {
    return `${status} with a body that is not JSON`;
  }
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { error?: { code?: unknown }; result?: { isError?: boolean; structuredContent?: { code?: unknown; error_id?: unknown } }; detail?: unknown };
    if (m?.error?.code === INTERNAL_ERROR) return 'JSON-RPC internal error';
    if (m?.result?.isError && (m.result.structuredContent?.code === 'INTERNAL' || m.result.structuredContent?.error_id)) return 'tool internal error';
    if (status >= 400 && !m?.error && typeof m?.detail !== 'string') return `${status} that is neither a JSON-RPC error nor a {detail}`;
  }
  return undefined;
}

// ---------------------------------------------------------------- suites

describe.each(fuzzedBackends())('every MCP tool, fuzzed from its input schema, on %s', (name, backend) => {
  let run: RunningBackend;
  let worlds: Worlds;
  let client: Client;
  let listed: Tool[];
  let tools: Tool[];

  beforeAll(async () => {
    ({ run, worlds } = await startFuzzWorlds(backend, name, SEED));
    client = await connectMcp(run.testApp.url, run.token, 'http', 'all');
    listed = (await client.listTools()).tools as Tool[];
    // Arguments come from the full rules (patterns, caps), which the listing shortens: a value built
    // from the listing alone may break a rule it does not show, and a huge text may be under no listed cap.
    const registry = run.testApp.app.get(ToolRegistry);
    tools = listed.map((tool) => ({ ...tool, inputSchema: registry.get(tool.name)!.rulesSchema as JsonSchema }));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await run?.stop();
  });

  test('tools/list lists every tool with an object input schema', () => {
    expect(listed.length).toBeGreaterThan(100);
    expect(listed.filter((t) => t.inputSchema?.type !== 'object').map((t) => t.name)).toEqual([]);
  });

  test('null where an argument has no meaning for it, and other values once failing or taken in silence, are refused naming the argument', async () => {
    const { project, session } = worlds.home.ids;
    const rows: [string, Record<string, unknown>, string][] = [
      ['claim_sprint_item', { project_id: project, session_id: session, item_id: null }, 'item_id'],
      ['get_effective_profile', { project_id: project, session_id: null }, 'session_id'],
      ['get_effective_profile', { project_id: project, user_id: null }, 'user_id'],
      ['receive_messages', { project_id: project, agent: null }, 'agent'],
      ['update_session', { session_id: session, name: null }, 'name'],
      // Not null, but found the same way: a whole number no database holds, and an array for an object.
      ['list_sprint_items', { project_id: project, offset: 1e308 }, 'offset'],
      ['update_project_settings', { project_id: project, executor_config: [] }, 'executor_config'],
    ];
    const answers = await Promise.all(rows.map(([tool, args]) => invoke(client, { tool, label: 'null', args, expect: 'names' })));
    expect(answers.map((a) => [a.isError, a.structured?.code, a.structured?.detail])).toEqual(rows.map(([, , field]) => [true, 'INVALID_INPUT', expect.stringContaining(field)]));
  });

  test('raw JSON-RPC with params of the wrong shape is invalid params (-32602), naming what is wrong', async () => {
    const res = await sendRaw(run.testApp.url, run.token, { jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 7 } });
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 41, error: { code: -32602, message: expect.stringContaining('name') } });
  });

  test('on the SSE transport too, params of the wrong shape are answered on the stream as invalid params (-32602)', async () => {
    const headers: Record<string, string> = run.token ? { authorization: `Bearer ${run.token}` } : {};
    const abort = new AbortController();
    const stream = await fetch(`${run.testApp.url}/mcp/sse`, { headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal });
    const reader = stream.body!.getReader();
    let buffered = '';
    const nextEvent = async (kind: string): Promise<string> => {
      for (;;) {
        const match = new RegExp(`event: ${kind}\r?\ndata: (.*)\r?\n`).exec(buffered);
        if (match) {
          buffered = buffered.slice(match.index + match[0].length);
          return match[1];
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before a ${kind} event`);
        buffered += new TextDecoder().decode(value);
      }
    };
    try {
      const endpoint = await nextEvent('endpoint');
      const post = await fetch(new URL(endpoint, run.testApp.url), {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'get_project', arguments: 'all' } }),
      });
      expect(post.status).toBe(202);
      expect(JSON.parse(await nextEvent('message'))).toEqual({ jsonrpc: '2.0', id: 42, error: { code: -32602, message: expect.stringContaining('arguments') } });
    } finally {
      abort.abort();
    }
  });

  test('generated calls to every tool: no internal error, broken arguments refused by name, no data of the other world', async () => {
    const ordered = [...tools].sort((a, b) => Number(DESTRUCTIVE.test(a.name)) - Number(DESTRUCTIVE.test(b.name)));
    const calls = ordered.flatMap((t) => callsFor(t, seededRandom(seedFor(SEED, t.name)), worlds));
    const refused = new Map<string, string>();
    const started = Date.now();
    const failures = [
      ...(await callAll(
        client,
        calls.filter((c) => c.label === 'valid arguments'),
        worlds,
        refused,
        run.testApp.logs,
      )),
      ...(await callAll(
        client,
        calls.filter((c) => c.label !== 'valid arguments'),
        worlds,
        refused,
        run.testApp.logs,
      )),
    ];
    const raw = rawMessages(worlds);
    for (const [label, message] of raw) {
      const { status, text } = await sendRaw(run.testApp.url, run.token, message);
      const problem = judgeRaw(status, text);
      if (problem) failures.push(`raw JSON-RPC [${label}] -> ${problem}: ${text.slice(0, 240)}`);
    }
    // eslint-disable-next-line no-console -- the seed and counts are what a reader needs to replay a failure
    console.log(
      `fuzz-surface MCP on ${name}: seed ${SEED}, ${tools.length} tools (${refused.size} refused their generated arguments), ${calls.length} tool calls and ${raw.length} raw JSON-RPC messages in ${Date.now() - started} ms: ${tally(failures)} (replay: BATON_FUZZ_SEED=${SEED})`,
    );
    expect({ seed: SEED, failures }).toEqual({ seed: SEED, failures: [] });
  }, 180_000);
});
