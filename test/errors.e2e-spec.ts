import Database from 'better-sqlite3';
import { randomBytes, randomUUID } from 'node:crypto';
import { MessageCase, wrongMessages } from './support/bad-input';
import { eachBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { startApp, TestApp } from './support/test-app';

const MiB = 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every captured log line, parsed (each line is one JSON object). */
function logEntries(testApp: TestApp): Record<string, unknown>[] {
  return testApp.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function projectCount(http: Http): Promise<number> {
  const res = await http.get('/projects');
  expect(res.status).toBe(200);
  return (res.body as unknown[]).length;
}

describe.each(eachBackend())('errors on %s', (name, backend) => {
  const hosted = name === 'postgres (hosted)';
  let run: RunningBackend;

  beforeAll(async () => {
    // debug: the most the service ever writes, so the token checks below see every line.
    run = await backend.start({ SERVICE_LOG_LEVEL: 'debug' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('an unknown route answers 404 with a {detail} body', async () => {
    for (const http of [run.http, new Http(run.testApp.url)]) {
      const res = await http.get('/no-such-route');
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual({ detail: expect.stringMatching(/no such route/) });
    }
  });

  test('a method a route does not have answers 404 with a {detail} body', async () => {
    const res = await run.http.send('PUT', '/projects', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  test('malformed JSON answers 400 {detail} and stores nothing', async () => {
    const before = await projectCount(run.http);
    for (const text of ['{"name": ', '{name: "x"}', "{'name': 'x'}", '{"name": "x",}', '\u0000']) {
      const res = await run.http.post('/projects', text);
      expect({ text, status: res.status }).toEqual({ text, status: 400 });
      expect(res.body).toEqual({ detail: 'request body is not valid JSON' });
    }
    expect(await projectCount(run.http)).toBe(before);
  });

  test('JSON nested thousands deep answers 400 {detail} and stores nothing, arrays and objects alike', async () => {
    const before = await projectCount(run.http);
    const deep = [
      `{"name": "Deep", "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`,
      `{"name": "Deep", "x": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
      '['.repeat(100_000),
    ];
    for (const text of deep) {
      const res = await run.http.post('/projects', text);
      expect({ start: text.slice(0, 30), status: res.status }).toEqual({ start: text.slice(0, 30), status: 400 });
      expect(res.body).toEqual({ detail: 'request body is nested too deeply (at most 64 levels)' });
    }
    // Brackets inside strings are text, not nesting.
    const quoted = await run.http.post('/projects', JSON.stringify({ name: `Deep ${'[{'.repeat(1000)}"\\` }));
    expect(quoted.status).toBe(400);
    expect(quoted.body.detail).toMatch(/^name /);
    // 64 levels are fine: the body is judged on its fields.
    const ok = await run.http.post('/projects', `{"name": "Deep", "x": ${'['.repeat(63)}${']'.repeat(63)}}`);
    expect(ok.status).toBe(400);
    expect(ok.body.detail).toMatch(/unknown field x/);
    expect(await projectCount(run.http)).toBe(before);
  });

  test('JSON nested thousands deep on /mcp is a JSON-RPC invalid request', async () => {
    const text = `{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "list_projects", "arguments": {"x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}}}`;
    const res = await run.http.post('/mcp', text, { accept: 'application/json, text/event-stream' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'request body is nested too deeply (at most 64 levels)' } });
  });

  test('a JSON body over 1 MiB answers 413 {detail} and stores nothing', async () => {
    const before = await projectCount(run.http);
    const name = `huge-${randomUUID()}`;
    const res = await run.http.post('/projects', { name, padding: 'x'.repeat(MiB) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.stringMatching(/too large/) });
    expect(await projectCount(run.http)).toBe(before);
    expect((await run.http.get(`/projects/by-name/${name}`)).status).toBe(404);
  });

  test('a body just under 1 MiB gets past the size limit and is judged on its fields', async () => {
    const res = await run.http.post('/projects', { name: 'x'.repeat(MiB - 100) });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/name must be shorter than or equal to 200 characters/);
  });

  test.each([
    ['a JSON array', '[{"name":"Array Project"}]'],
    ['an empty JSON array', '[]'],
    ['a JSON string', '"Just A String"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['JSON true', 'true'],
  ])('a body that is %s answers 400 {detail}', async (_what, text) => {
    const before = await projectCount(run.http);
    const res = await run.http.post('/projects', text);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ detail: expect.stringMatching(/JSON/) });
    expect(await projectCount(run.http)).toBe(before);
  });

  test.each([
    ['POST', '/projects', { name: 42 }, /\bname\b.*string/],
    ['POST', '/projects', {}, /\bname\b/],
    ['POST', '/projects', { name: '' }, /name must not be empty/],
    ['POST', '/projects', { name: '   ' }, /name must not be empty/],
    ['POST', '/projects', { name: 'x'.repeat(201) }, /name must be shorter than or equal to 200 characters/],
    ['POST', '/projects', { name: 'bell\u0007' }, /name must not contain control characters/],
    ['POST', '/projects', { name: 'Fine', colour: 'red' }, /unknown field colour/],
    ['POST', '/projects', { name: ['a'] }, /\bname\b/],
    ['DELETE', '/projects', { ids: 'x' }, /\bids\b/],
    ['DELETE', '/projects', { ids: [] }, /\bids\b/],
    ['DELETE', '/projects', { ids: ['nope'] }, /each value in ids must be a UUID/],
    ['DELETE', '/projects', {}, /\bids\b/],
    ['POST', `/projects/${randomUUID()}/rename`, { name: null }, /\bname\b/],
    ['POST', '/projects/not-a-uuid/rename', { name: 'Fine' }, /project_id must be a UUID/],
    ['GET', '/projects/not-a-uuid', undefined, /project_id must be a UUID/],
    ['GET', `/projects/by-name/${'n'.repeat(201)}`, undefined, /\bname\b/],
    ['POST', '/workspace/connect-db', { url: 'mysql://x' }, /\burl\b/],
    ['POST', '/workspace/connect-db', {}, /\burl\b/],
  ])('%s %s with invalid input answers 400 naming the field', async (method, path, body, detail) => {
    const res = await run.http.send(method, path, body);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
  });

  test('a wrong type or a missing field is answered with what was wrong, never a bound, length or pattern', async () => {
    const project = (await run.http.post('/projects', { name: `Types ${randomUUID()}` })).body.id as string;
    const base = `/projects/${project}`;
    const cases: MessageCase<[string, string, unknown]>[] = [
      ['project name a number', ['POST', '/projects', { name: 5 }], 'name must be a string'],
      ['project name a list', ['POST', '/projects', { name: ['a'] }], 'name must be a string'],
      ['project name left out', ['POST', '/projects', {}], 'name is required'],
      ['rename to a number', ['POST', `${base}/rename`, { name: 12 }], 'name must be a string'],
      ['ids a string', ['DELETE', '/projects', { ids: 'x' }], 'ids must be an array'],
      ['ids left out', ['DELETE', '/projects', {}], 'ids is required'],
      ['note title left out', ['POST', `${base}/notes`, { body: 'b' }], 'title is required'],
      ['note title a number', ['POST', `${base}/notes`, { title: 7 }], 'title must be a string'],
      ['note tags a number', ['POST', `${base}/notes`, { title: 'T', tags: 5 }], 'tags must be an array of strings'],
      ['message wait a word', ['POST', `${base}/messages/receive`, { agent: 'a', wait_seconds: 'abc' }], 'wait_seconds must be a number'],
      ['message wait an object', ['POST', `${base}/messages/receive`, { agent: 'a', wait_seconds: { s: 1 } }], 'wait_seconds must be a number'],
      ['message limit a word', ['POST', `${base}/messages/receive`, { agent: 'a', limit: 'many' }], 'limit must be an integer'],
      ['ack_through left out', ['POST', `${base}/messages/ack`, { agent: 'a' }], 'ack_through is required'],
      ['ack_through a word', ['POST', `${base}/messages/ack`, { agent: 'a', ack_through: 'x' }], 'ack_through must be an integer'],
      ['archive count a word', ['POST', `${base}/decisions-pinned/archive-oldest`, { count: 'two' }], 'count must be an integer'],
      ['settings limit a boolean', ['PATCH', '/workspace/settings', { context_notes_limit: true }], 'context_notes_limit must be an integer'],
      ['pinned maximum a word', ['PATCH', `${base}/settings`, { max_pinned_decisions: 'lots' }], 'max_pinned_decisions must be an integer number'],
      ['hitl wait a word', ['GET', `/hitl/${randomUUID()}?wait=abc`, undefined], 'wait must be a number of seconds'],
      ['hitl list limit a word', ['GET', '/hitl?limit=abc', undefined], 'limit must be an integer'],
    ];
    const wrong = await wrongMessages(async ([method, path, body]) => {
      const res = await run.http.send(method, path, body);
      return { status: res.status, detail: res.body?.detail };
    }, cases);
    expect(wrong).toEqual([]);
  });

  test('an MCP tool answers a wrong type or a missing argument with what was wrong', async () => {
    const project = (await run.http.post('/projects', { name: `Tool Types ${randomUUID()}` })).body.id as string;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const cases: MessageCase<[string, Record<string, unknown>]>[] = [
        ['create_project name a number', ['create_project', { name: 5 }], 'name must be a string'],
        ['create_project name left out', ['create_project', {}], 'name is required'],
        ['get_project id left out', ['get_project', {}], 'project_id is required'],
        ['receive wait a word', ['receive_messages', { project_id: project, agent: 'a', wait_seconds: 'abc' }], 'wait_seconds must be a number'],
        ['ack_through left out', ['ack_messages', { project_id: project, agent: 'a' }], 'ack_through is required'],
        ['archive count a list', ['archive_oldest_decisions', { project_id: project, count: [2] }], 'count must be an integer'],
        ['export limit a boolean', ['export_ai_log', { limit: true }], 'limit must be an integer'],
        ['workspace limit a word', ['update_workspace_settings', { context_decisions_limit: 'few' }], 'context_decisions_limit must be an integer'],
      ];
      const wrong = await wrongMessages(async ([name, args]) => {
        const result = await callTool(client, name, args);
        return { status: result.isError ? 400 : 200, detail: result.structured?.detail ?? result.text };
      }, cases);
      expect(wrong).toEqual([]);
    } finally {
      await client.close();
    }
  });

  test('a number written as digits is read as the number in a query, a JSON body and tool arguments alike', async () => {
    const project = (await run.http.post('/projects', { name: `Digits ${randomUUID()}` })).body.id as string;
    const base = `/projects/${project}`;
    const receive = await run.http.post(`${base}/messages/receive`, { agent: 'a', wait_seconds: '0', limit: '5', ack_through: '0' });
    expect([receive.status, receive.body.messages]).toEqual([200, []]);
    expect((await run.http.post(`${base}/messages/ack`, { agent: 'a', ack_through: '0' })).body).toEqual({ acked_through: 0 });
    const settings = await run.http.patch(`${base}/settings`, { max_pinned_decisions: '7', executor_config: { test_min: '3' } });
    expect(settings.status).toBe(200);
    const stored = (await run.http.get(`${base}/settings`)).body;
    expect(JSON.stringify(stored)).toMatch(/"max_pinned_decisions":(\{[^}]*"value":)?7\b/);
    expect((await run.http.get('/hitl?limit=5')).status).toBe(200);
    // Digits only: a word, a sign, an exponent or white space stays text and is refused by the type rule.
    for (const limit of ['5 ', '1e2', '+5', 'five']) {
      const res = await run.http.post(`${base}/messages/receive`, { agent: 'a', limit });
      expect([limit, res.status, res.body.detail]).toEqual([limit, 400, 'limit must be an integer']);
    }
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const archived = await callTool(client, 'archive_oldest_decisions', { project_id: project, count: '2' });
      expect(archived.isError).toBe(false);
      const exported = await callTool(client, 'export_ai_log', { limit: '10' });
      expect(exported.isError).toBe(false);
      const refused = await callTool(client, 'export_ai_log', { limit: '10.5' });
      expect(refused.structured?.detail).toBe('limit must be an integer');
    } finally {
      await client.close();
    }
  });

  test.each([
    ['text/plain', '{"name":"Plain Text Project"}'],
    ['application/x-www-form-urlencoded', 'name=Form+Project'],
    ['application/xml', '<project><name>Xml</name></project>'],
  ])('a body sent as %s answers 415 naming JSON, and stores nothing', async (type, text) => {
    const before = await projectCount(run.http);
    const res = await run.http.post('/projects', text, { 'content-type': type });
    expect([res.status, res.body]).toEqual([415, { detail: 'request body must be JSON (Content-Type: application/json)' }]);
    expect(await projectCount(run.http)).toBe(before);
  });

  test('a body without a Content-Type answers 415; an action with no body at all still runs', async () => {
    const project = (await run.http.post('/projects', { name: `No Body ${randomUUID()}` })).body.id as string;
    const url = `${run.testApp.url}/projects/${project}/decisions-pinned/archive-oldest`;
    const auth: Record<string, string> = run.token ? { authorization: `Bearer ${run.token}` } : {};
    const untyped = await fetch(url, { method: 'POST', headers: auth, body: new Uint8Array(Buffer.from('{"count":1}')) });
    expect(untyped.status).toBe(415);
    expect(await untyped.json()).toEqual({ detail: 'request body must be JSON (Content-Type: application/json)' });
    const bare = await fetch(url, { method: 'POST', headers: auth });
    expect(bare.status).toBeLessThan(300);
    const emptyText = await fetch(url, { method: 'POST', headers: { ...auth, 'content-type': 'text/plain' }, body: '' });
    expect(emptyText.status).toBeLessThan(300);
  });

  test('an unknown MCP tool is named once, behind a single JSON-RPC prefix', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const error = await client.callTool({ name: 'nope', arguments: {} }).then(
        () => undefined,
        (e: Error & { code?: number }) => e,
      );
      expect([error?.message, error?.code]).toEqual(['MCP error -32602: unknown tool: nope', -32602]);
    } finally {
      await client.close();
    }
  });

  // Object.prototype member names are the keys a whitelist built on a plain object misses.
  test.each(['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__'])(
    'an unknown field named %s is refused with 400 like any other unknown field, and nothing is stored',
    async (key) => {
      const before = await projectCount(run.http);
      const name = `Proto Key ${randomUUID()}`;
      const res = await run.http.post('/projects', `{"name":"${name}","${key}":1}`);
      expect({ key, status: res.status, detail: res.body?.detail }).toEqual({ key, status: 400, detail: `unknown field ${key}` });
      expect(await projectCount(run.http)).toBe(before);
    },
  );

  test('an MCP tool refuses an unknown argument named constructor instead of acting on the rest', async () => {
    const victim = (await run.http.post('/projects', { name: `Victim ${randomUUID()}` })).body;
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = await callTool(client, 'delete_project', { project_id: victim.id, constructor: true });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/unknown field constructor/);
    } finally {
      await client.close();
    }
    expect((await run.http.get(`/projects/${victim.id}`)).status).toBe(200);
  });

  test('a lone surrogate in any string field is 400 naming the field, at any depth, and nothing is stored', async () => {
    const before = await projectCount(run.http);
    const unicode = (field: string) => `${field} must be valid Unicode text (it contains a lone surrogate)`;
    for (const name of ['\ud800', 'a\udc00b', 'end \udbff', '\udfff\ud800']) {
      const res = await run.http.post('/projects', { name });
      expect({ name: JSON.stringify(name), status: res.status, body: res.body }).toEqual({
        name: JSON.stringify(name),
        status: 400,
        body: { detail: unicode('name'), code: 'INVALID_INPUT' },
      });
    }
    // A pair is one character, not a lone surrogate.
    const paired = await run.http.post('/projects', { name: `Paired \ud83d\ude00 ${randomUUID()}` });
    expect(paired.status).toBe(201);
    const projectId = paired.body.id as string;
    const sprintItems = async () => (await run.http.get(`/projects/${projectId}/sprint-items`)).body.length as number;
    const nested = await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Fine', version: 'v1', touches_resources: ['file:a.ts', 'file:\udc00.ts'] });
    expect(nested.status).toBe(400);
    expect(nested.body).toEqual({ detail: unicode('touches_resources[1]'), code: 'INVALID_INPUT' });
    const batch = await run.http.post(`/projects/${projectId}/sprint-batch`, {
      op: 'create',
      items: [
        { title: 'Fine', version: 'v1' },
        { title: 'Bad \ud800', version: 'v1' },
      ],
    });
    expect(batch.status).toBe(400);
    expect(batch.body.detail).toBe(unicode('items[1].title'));
    expect(await sprintItems()).toBe(0);
    expect(await projectCount(run.http)).toBe(before + 1);
  });

  test('an MCP tool refuses a lone surrogate in an argument, naming it, and stores nothing', async () => {
    const before = await projectCount(run.http);
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const result = await callTool(client, 'create_project', { name: 'Lone \ud800' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/name must be valid Unicode text \(it contains a lone surrogate\)/);
    } finally {
      await client.close();
    }
    expect(await projectCount(run.http)).toBe(before);
  });

  test('a validation error never repeats a connection string given as input', async () => {
    const url = 'mysql://admin:hunter2-connect@db.example.com/x';
    const res = await run.http.post('/workspace/connect-db', { url });
    expect(res.status).toBe(400);
    expect(res.text).not.toContain('hunter2-connect');
  });

  // Self-hosted instances take no tokens: this case exists only on the hosted backend.
  if (hosted) {
    test('an invalid bearer token answers 401 {detail} and is not echoed back', async () => {
      const forged = `sk_service_${randomBytes(32).toString('base64url')}`;
      const anonymous = new Http(run.testApp.url);
      for (const res of [
        await anonymous.get('/projects'),
        await run.http.withToken(forged).get('/projects'),
        await run.http.withToken(forged).post('/projects', { name: 'Forged' }),
        await run.http.withToken(forged).get(`/projects/${forged}`),
        await run.http.withToken(forged).get(`/projects?token=${forged}`),
        await run.http.withToken('not-a-baton-token').get('/projects'),
        await run.http.withToken(forged).post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({ detail: expect.any(String), code: 'UNAUTHORIZED' });
        expect(res.text).not.toContain(forged);
      }
      // A forged token in a broken body is refused by the parser; it must not be echoed or logged either.
      const broken = await run.http.withToken(forged).post('/projects', `{"name": "${forged}"`);
      expect(broken.status).toBe(400);
      expect(broken.text).not.toContain(forged);
    });
  }

  test('no log line carries an API token', async () => {
    // Give every part of the service a chance to log: errors, a tool call, a valid token if there is one.
    await run.http.get('/no-such-route');
    await run.http.post('/projects', '{"broken"');
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      await callTool(client, 'get_project', { project_id: randomUUID() });
    } finally {
      await client.close();
    }
    expect(run.testApp.logs.length).toBeGreaterThan(0);
    const leaking = run.testApp.logs.filter((line) => line.includes('sk_service_') || (run.token !== undefined && line.includes(run.token)));
    expect(leaking).toEqual([]);
  });
});

describe.each(eachBackend())('SERVICE_BODY_LIMIT on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_BODY_LIMIT: '2048' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a 3 KB body answers 413 {detail} when the limit is 2048 bytes, and stores nothing', async () => {
    const before = await projectCount(run.http);
    const res = await run.http.post('/projects', { name: 'Limited', padding: 'x'.repeat(3 * 1024) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.stringMatching(/too large/) });
    expect(await projectCount(run.http)).toBe(before);
  });

  test('a body under the lowered limit is still served', async () => {
    const res = await run.http.post('/projects', { name: `Small ${'y'.repeat(150)}` });
    expect(res.status).toBe(201);
  });

  test('GET /config reports the effective limit', async () => {
    expect((await run.http.get('/config')).body.body_limit_bytes).toBe(2048);
  });
});

describe('an unexpected error on sqlite (self-hosted)', () => {
  let testApp: TestApp;
  let http: Http;

  beforeAll(async () => {
    testApp = await startApp();
    http = new Http(testApp.url);
    expect((await http.post('/projects', { name: 'Before The Fall' })).status).toBe(201);
    // Break the storage behind the app's back: the only way to reach the generic 500 path from outside.
    const file = new Database(testApp.config.sqlitePath);
    try {
      file.pragma('busy_timeout = 5000');
      file.exec('DROP TABLE projects');
    } finally {
      file.close();
    }
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('answers 500 {detail: "internal error", error_id} and nothing else', async () => {
    const res = await http.get('/projects');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: 'internal error', error_id: expect.stringMatching(UUID) });
    for (const fragment of ['no such table', 'Sqlite', 'QueryFailed', 'stack', '    at ', '.ts:', 'projects.service']) {
      expect(res.text).not.toContain(fragment);
    }
  });

  test('logs the stack once, at error level, under the same error_id', async () => {
    const res = await http.post('/projects', { name: 'After The Fall' });
    expect(res.status).toBe(500);
    const errorId = res.body.error_id as string;
    const entries = logEntries(testApp).filter((e) => e.error_id === errorId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ level: 'error', error_id: errorId, stack: expect.stringContaining('no such table: projects') });
    expect(entries[0].stack).toMatch(/\n\s+at /);
  });

  test('each failure gets its own error_id', async () => {
    const a = await http.get('/projects');
    const b = await http.get('/projects');
    expect(a.body.error_id).not.toBe(b.body.error_id);
    const logged = logEntries(testApp).map((e) => e.error_id);
    expect(logged).toEqual(expect.arrayContaining([a.body.error_id, b.body.error_id]));
  });

  test('an MCP tool hitting the same failure returns an isError result with an error_id whose stack is logged', async () => {
    const client = await connectMcp(testApp.url);
    try {
      const result = await callTool(client, 'list_projects');
      expect(result.isError).toBe(true);
      expect(result.text).toBe('internal error');
      expect(result.structured).toEqual({ detail: 'internal error', error_id: expect.stringMatching(UUID) });
      const entries = logEntries(testApp).filter((e) => e.error_id === result.structured?.error_id);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ level: 'error', tool: 'list_projects', stack: expect.stringContaining('no such table') });
    } finally {
      await client.close();
    }
  });

  test('the liveness probe still answers while the storage is broken', async () => {
    expect((await http.get('/health')).status).toBe(200);
  });
});
