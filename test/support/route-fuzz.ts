import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Http, HttpResult } from './http';
import { callTool } from './mcp-client';

/**
 * Bad-input checks for the routes and tools of goals, tasks, notes, the
 * workspace layer and project extras: whatever is sent, the answer is never a
 * 5xx, every 4xx carries a `detail`, and a value of the wrong JSON type (or an
 * unknown field) is always refused.
 */

/** Wrong JSON types; each field gets those whose type differs from its valid value's. */
export const WRONG_TYPES: unknown[] = [null, true, 3.5, [], ['a'], { nested: { deep: [null] } }];

/** Strings that are valid JSON strings but hostile: injection, query syntax, traversal, control characters, odd Unicode, size. */
export const NASTY_STRINGS: string[] = [
  '',
  ' ',
  "'; DROP TABLE tasks; --",
  '%_\\"',
  'NEAR(a b) OR c*',
  '../../etc/passwd',
  'nul\u0000inside',
  '\u001b[31m\u202eevil',
  '😀'.repeat(40),
  'x'.repeat(120_000),
];

/**
 * For tool arguments, the oversized string is shorter: every tool call's
 * arguments are also recorded by the activity log, and 2,000 characters are
 * already past every title and identifier limit.
 */
const TOOL_NASTY_STRINGS = NASTY_STRINGS.map((s) => (s.length > 2_000 ? 'x'.repeat(2_000) : s));

/** Path segments that are not ids: a route must answer 400 or 404, never 5xx. */
export const BAD_SEGMENTS: string[] = ['nope', '%00', '..%2f..%2fetc', `${'f'.repeat(8)}-zzzz-zzzz-zzzz-${'f'.repeat(12)}`, 'x'.repeat(300), '%F0%9F%98%80'];

const CONCURRENCY = 6;

export interface RouteProbe {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** A valid body; each field is broken in turn. */
  body?: Record<string, unknown>;
  /** A valid query; each parameter is broken in turn. */
  query?: Record<string, string>;
}

export function expectClientError(res: HttpResult, label: string): void {
  if (res.status >= 500 || res.status < 400 || typeof res.body?.detail !== 'string' || res.body.detail === '') {
    throw new Error(`${label}: expected a 4xx with a detail, got ${res.status} ${res.text.slice(0, 300)}`);
  }
}

export function expectNoServerError(res: HttpResult, label: string): void {
  if (res.status >= 500) throw new Error(`${label}: server error ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400 && (typeof res.body?.detail !== 'string' || res.body.detail === '')) {
    throw new Error(`${label}: ${res.status} without a detail: ${res.text.slice(0, 300)}`);
  }
}

/**
 * Breaks a route's input one field at a time: wrong types and unknown fields
 * are refused; hostile strings, repeated query parameters and bodies that are
 * not objects are never a 5xx.
 */
export async function fuzzRoute(http: Http, probe: RouteProbe): Promise<void> {
  const label = `${probe.method} ${probe.path}`;
  const checks: (() => Promise<void>)[] = [];
  const expect = (mustFail: boolean, path: string, body: unknown, what: string) =>
    checks.push(async () => (mustFail ? expectClientError : expectNoServerError)(await http.send(probe.method, path, body), `${label} ${what}`));
  const path = withQuery(probe.path, probe.query ?? {});
  if (probe.body) {
    for (const field of Object.keys(probe.body)) {
      for (const bad of wrongTypesFor(field, probe.body[field])) expect(true, path, { ...probe.body, [field]: bad }, `${field}=${JSON.stringify(bad)}`);
      for (const nasty of [null, ...NASTY_STRINGS]) expect(false, path, { ...probe.body, [field]: nasty }, `${field}=${JSON.stringify(nasty)?.slice(0, 20)}`);
    }
    expect(true, path, { ...probe.body, surprise_field: 1 }, 'unknown field');
    expect(true, path, '[1,2]', 'array body');
    for (const raw of ['"text"', '42', 'null', '{"broken']) expect(false, path, raw, `body ${raw}`);
  }
  for (const param of Object.keys(probe.query ?? {})) {
    for (const nasty of [...NASTY_STRINGS.slice(0, 9), 'x'.repeat(5000)]) {
      expect(false, withQuery(probe.path, { ...probe.query, [param]: nasty }), probe.body, `?${param}=${JSON.stringify(nasty.slice(0, 20))}`);
    }
    expect(false, `${path}&${param}=1&${param}=2`, probe.body, `?${param} twice`);
  }
  if (probe.method === 'GET' || probe.method === 'DELETE') expect(true, withQuery(probe.path, { ...probe.query, surprise: '1' }), undefined, 'unknown query parameter');
  await inPool(checks);
}

/** Sends `method` to each path (built with bad ids): 400 or 404 with a detail, never 5xx. */
export async function fuzzPathIds(http: Http, method: RouteProbe['method'], paths: string[], body?: unknown): Promise<void> {
  await inPool(
    paths.map((path) => async () => {
      const res = await http.send(method, path, body);
      if (![400, 404].includes(res.status) || typeof res.body?.detail !== 'string') {
        throw new Error(`${method} ${path}: expected 400/404 with a detail, got ${res.status} ${res.text.slice(0, 200)}`);
      }
    }),
  );
}

/**
 * Breaks a tool's arguments one field at a time: wrong types and unknown
 * fields are isError results with a detail; nothing is ever an internal error.
 */
export async function fuzzTool(client: Client, name: string, valid: Record<string, unknown>): Promise<void> {
  const checks: (() => Promise<void>)[] = [];
  const check = (args: unknown, mustFail: boolean, label: string) =>
    checks.push(async () => {
      const r = await callTool(client, name, args as Record<string, unknown>);
      if (r.isError && (r.text === 'internal error' || typeof r.structured?.detail !== 'string')) throw new Error(`${name} ${label}: ${r.text}`);
      if (mustFail && !r.isError) throw new Error(`${name} ${label}: expected a refusal, got ${r.text.slice(0, 200)}`);
    });
  for (const field of Object.keys(valid)) {
    for (const bad of wrongTypesFor(field, valid[field])) check({ ...valid, [field]: bad }, true, `${field}=${JSON.stringify(bad)}`);
    for (const nasty of [null, ...TOOL_NASTY_STRINGS]) check({ ...valid, [field]: nasty }, false, `${field}=${JSON.stringify(nasty)?.slice(0, 20)}`);
  }
  check({ ...valid, surprise_field: true }, true, 'unknown field');
  await inPool(checks);
}

function withQuery(path: string, query: Record<string, string>): string {
  const qs = new URLSearchParams(query).toString();
  return qs ? `${path}?${qs}` : path;
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Null is "not given" for optional fields and "clear" for some: it is sent as a hostile value, never required to fail. */
function wrongTypesFor(_field: string, valid: unknown): unknown[] {
  return WRONG_TYPES.filter((bad) => bad !== null && jsonType(bad) !== jsonType(valid));
}

/** Runs the checks a few at a time; the first failure is thrown after all have settled. */
async function inPool(checks: (() => Promise<void>)[]): Promise<void> {
  const failures: unknown[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < checks.length) {
        const check = checks[next++];
        await check().catch((error: unknown) => failures.push(error));
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}
