import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type ElicitResult,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EntityManager } from 'typeorm';
import { runWithTenant, TenantDb } from '../libs/tenancy';
import { McpSessionStore } from '../src/mcp/sessions/mcp-session-store';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcpSession } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { startApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const ELICITATION = { elicitation: { form: {} } };

/** Notifications of resource updates a client received, by URI. */
function updatesOf(client: Client): string[] {
  const uris: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void uris.push(n.params.uri));
  return uris;
}

/** A raw MCP session over fetch: what a client without the SDK sends, to see the stream's event ids. */
class RawSession {
  id = '';
  constructor(
    private readonly http: Http,
    private readonly token?: string,
  ) {}

  async open(): Promise<void> {
    const res = await this.post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    this.id = res.headers.get('mcp-session-id') ?? '';
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  post(message: unknown) {
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
    if (this.id) headers['mcp-session-id'] = this.id;
    return this.http.post('/mcp', message, headers);
  }

  /** Opens the event stream (after `lastEventId` when given) and reads `count` events from it, then drops it. */
  async readEvents(count: number, lastEventId?: string): Promise<{ id: string; data: any }[]> {
    const controller = new AbortController();
    const headers: Record<string, string> = { accept: 'text/event-stream', 'mcp-session-id': this.id, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    const res = await fetch(new URL('/mcp', this.http.base), { headers, signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    const events: { id: string; data: any }[] = [];
    let buffer = '';
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (id && data) events.push({ id, data: JSON.parse(data) });
      }
    }
    controller.abort();
    return events;
  }
}

/**
 * A proxy in front of the instances, as a load balancer is: it sends every request to the instance
 * it currently points at, can cut the event streams open through it, and records the
 * `Last-Event-ID` of the streams clients reopen.
 */
async function switchingProxy(target: string) {
  let current = target;
  const streams = new Set<ServerResponse>();
  const lastEventIds: string[] = [];
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.headers['last-event-id']) lastEventIds.push(String(req.headers['last-event-id']));
    const url = new URL(req.url!, current);
    const upstream = request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
    if (req.method === 'GET') {
      streams.add(res);
      res.on('close', () => {
        streams.delete(res);
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    lastEventIds,
    switchTo: (url: string) => void (current = url),
    cut: () => streams.forEach((res) => res.destroy()),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.each(eachBackend())('MCP sessions on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  let sessionId: string;
  const clients: Client[] = [];
  const connect = async (capabilities = {}, prepare?: (client: Client) => void) => {
    const connected = await connectMcpSession(run.testApp.url, run.token, capabilities, prepare);
    clients.push(connected.client);
    return connected;
  };

  beforeAll(async () => {
    run = await backend.start({ SERVICE_POLL_INTERVAL_MS: '200', SERVICE_MAX_WAIT_SECONDS: '10' });
    projectId = (await run.http.post('/projects', { name: 'Sessions' })).body.id;
    sessionId = (await run.http.post('/sessions/register', { project_id: projectId, name: 'asker', human_id: 'grace' })).body.id;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await run?.stop();
  });

  test('initialize opens a session; resources are listed as templates and read with the REST content; a read is not a tool', async () => {
    const { client, transport } = await connect();
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, logging: {} });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['context', 'goal', 'sprint', 'hitl', 'inbox', 'handoff'].map((kind) => `baton://projects/{project_id}/${kind}`));
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`baton://projects/${projectId}/goal`);

    await run.http.post(`/projects/${projectId}/goal`, { content: 'Ship sessions' });
    const goal = await client.readResource({ uri: `baton://projects/${projectId}/goal` });
    expect(goal.contents[0]).toMatchObject({ mimeType: 'application/json' });
    expect(JSON.parse((goal.contents[0] as { text: string }).text)).toEqual((await run.http.get(`/projects/${projectId}/goal`)).body);
    const context = await client.readResource({ uri: `baton://projects/${projectId}/context` });
    expect(context.contents[0]).toMatchObject({ mimeType: 'text/plain', text: (await run.http.get(`/projects/${projectId}/context-block`)).text });

    await expect(client.readResource({ uri: `baton://projects/${projectId}/nothing` })).rejects.toThrow(/unknown resource/);
    await expect(client.readResource({ uri: 'baton://projects/00000000-0000-4000-8000-000000000000/goal' })).rejects.toThrow(/not found/i);
    const { tools } = await client.listTools();
    expect(tools.some((t) => t.name.includes('resource'))).toBe(false);
  });

  test('resources/subscribe: a change by REST sends notifications/resources/updated of that resource only', async () => {
    const { client } = await connect();
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: `baton://projects/${projectId}/sprint` });
    await client.subscribeResource({ uri: `baton://projects/${projectId}/handoff` });
    await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Subscribe me', version: 'v1' });
    await waitUntil(() => updates.includes(`baton://projects/${projectId}/sprint`), 5_000, 'the sprint update');
    expect(updates).not.toContain(`baton://projects/${projectId}/handoff`);

    await client.unsubscribeResource({ uri: `baton://projects/${projectId}/sprint` });
    const before = updates.length;
    await run.http.post(`/projects/${projectId}/sprint-items`, { title: 'Not told', version: 'v1' });
    await run.http.post(`/projects/${projectId}/goal`, { content: 'A later change' });
    // The goal write is queued after the sprint item's; nothing of either reaches this client.
    const other = await connect();
    const seen = updatesOf(other.client);
    await other.client.subscribeResource({ uri: `baton://projects/${projectId}/goal` });
    await run.http.post(`/projects/${projectId}/goal`, { content: 'Seen by the other' });
    await waitUntil(() => seen.length > 0, 5_000, 'the other client update');
    expect(updates.length).toBe(before);
  });

  test('concurrent changes each send their update: none is lost on the stream', async () => {
    const { client } = await connect();
    const updates = updatesOf(client);
    const uri = `baton://projects/${projectId}/sprint`;
    await client.subscribeResource({ uri });
    await Promise.all(Array.from({ length: 20 }, (_, i) => run.http.post(`/projects/${projectId}/sprint-items`, { title: `Concurrent ${i}`, version: 'v1' })));
    await waitUntil(() => updates.length >= 20, 10_000, 'twenty updates');
    expect(updates).toEqual(Array.from({ length: 20 }, () => uri));
  });

  test('the changes of one turn read the subscribers of a project once, and each is told only of the kinds it changed', async () => {
    const batched = (await run.http.post('/projects', { name: 'Batched' })).body.id;
    const sprint = await connect();
    const goal = await connect();
    await sprint.client.subscribeResource({ uri: `baton://projects/${batched}/sprint` });
    await goal.client.subscribeResource({ uri: `baton://projects/${batched}/goal` });
    await goal.client.subscribeResource({ uri: `baton://projects/${batched}/context` });
    const store = run.testApp.app.get(McpSessionStore);
    // Counts the statements that read mcp_subscriptions (other reads, of open streams say, may run meanwhile).
    const db = run.testApp.app.get(TenantDb);
    const read = db.read.bind(db);
    const subscriberReads: string[] = [];
    const counting = (m: EntityManager) =>
      new Proxy(m, {
        get: (target, key) =>
          key === 'query'
            ? (text: string, values?: unknown[]) => {
                if (text.includes('mcp_subscriptions')) subscriberReads.push(text);
                return target.query(text, values);
              }
            : Reflect.get(target, key),
      });
    const reads = jest.spyOn(db, 'read').mockImplementation(((work: (m: EntityManager) => Promise<unknown>) => read((m) => work(counting(m)))) as TenantDb['read']);
    try {
      const tenant = await run.testApp.app.get(TenantResolver).resolve(run.token ? `Bearer ${run.token}` : undefined);
      const asked = await runWithTenant(tenant, () =>
        Promise.all([store.subscribersOf(batched, ['sprint', 'context']), store.subscribersOf(batched, ['goal']), store.subscribersOf(batched, ['sprint', 'context'])]),
      );
      expect(subscriberReads).toHaveLength(1);
      const told = asked.map((rows) => rows.map((r) => `${r.session_id === sprint.transport.sessionId ? 'sprint client' : 'goal client'} ${r.kind}`).sort());
      expect(told).toEqual([['goal client context', 'sprint client sprint'], ['goal client goal'], ['goal client context', 'sprint client sprint']]);
    } finally {
      reads.mockRestore();
    }
  });

  test('a subscription without a session is refused; a stateless client keeps working as before', async () => {
    const raw = new RawSession(run.http, run.token);
    const stateless = await raw.post({ jsonrpc: '2.0', id: 7, method: 'resources/subscribe', params: { uri: `baton://projects/${projectId}/goal` } });
    expect(stateless.body.error.message).toMatch(/needs an MCP session/);
    const call = await raw.post({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'get_project', arguments: { project_id: projectId } } });
    expect(call.status).toBe(200);
    expect(call.headers.get('mcp-session-id')).toBeNull();
    expect(JSON.parse(call.body.result.content[0].text).id).toBe(projectId);
    expect((await run.http.get('/mcp')).status).toBe(405);
    const unknown = await run.http.post(
      '/mcp',
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { accept: 'application/json, text/event-stream', 'mcp-session-id': '00000000-0000-4000-8000-000000000000' },
    );
    expect(unknown.status).toBe(404);
  });

  test('logging/setLevel answers {} and filters the messages of the session', async () => {
    const { client } = await connect();
    const messages: { level: string; data: any }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
    const holder = (await run.http.post('/sessions/register', { project_id: projectId, name: 'holder' })).body.id;
    expect((await callTool(client, 'claim_file', { file_path: 'held.ts', session_id: holder })).isError).toBe(false);
    expect(await client.setLoggingLevel('warning')).toEqual({});
    const refused = await callTool(client, 'claim_file', { file_path: 'held.ts', session_id: sessionId });
    expect(refused.isError).toBe(true);
    await waitUntil(() => messages.length > 0, 5_000, 'the warning');
    expect(messages[0]).toMatchObject({ level: 'warning', data: { tool: 'claim_file', outcome: 'error' } });

    await client.setLoggingLevel('error');
    await callTool(client, 'claim_file', { file_path: 'held.ts', session_id: sessionId });
    await callTool(client, 'get_project', { project_id: projectId });
    await client.setLoggingLevel('debug');
    await callTool(client, 'get_project', { project_id: projectId });
    await waitUntil(() => messages.length > 1, 5_000, 'the debug message');
    expect(messages.slice(1)).toEqual([expect.objectContaining({ level: 'debug', data: { tool: 'get_project', outcome: 'ok' } })]);
  });

  test('a long call with a progress token reports progress on the session stream', async () => {
    const { client } = await connect();
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { question: 'Wait for me?', session_id: sessionId })).body;
    const progress: number[] = [];
    const result = await client.callTool({ name: 'get_hitl_request', arguments: { request_id: hitl.id, wait: 5 } }, CallToolResultSchema, {
      onprogress: (p) => void progress.push(p.progress),
    });
    expect(result.isError).toBeFalsy();
    expect(progress.length).toBeGreaterThanOrEqual(1);
    await run.http.patch(`/hitl/${hitl.id}`, { action: 'dismiss' });
  });

  test('elicitation: a question asked by a client that can answer is asked there; its answer wakes a REST waiter', async () => {
    const asked: { message: string; hitl: string }[] = [];
    const { client } = await connect(ELICITATION, (c) =>
      c.setRequestHandler(ElicitRequestSchema, (request): ElicitResult => {
        asked.push({ message: request.params.message, hitl: (request.params._meta as Record<string, string>)['baton/hitl_id'] });
        return { action: 'accept', content: { answer: 'Yes, ship it' } };
      }),
    );
    const created = await callTool(client, 'request_hitl', { project_id: projectId, session_id: sessionId, question: 'Ship it?', urgency: 'high', require_human: true });
    const waiter = run.http.get(`/hitl/${created.value.id}?wait=10`);
    const answered = (await waiter).body;
    expect(answered).toMatchObject({ status: 'answered', answer: 'Yes, ship it', answered_by: 'mcp-client:baton-tests' });
    expect(asked).toEqual([{ message: '[high] Ship it?', hitl: created.value.id }]);
  });

  test('elicitation: decline leaves the question pending; a client without the capability is not asked', async () => {
    const { client } = await connect(ELICITATION, (c) => c.setRequestHandler(ElicitRequestSchema, (): ElicitResult => ({ action: 'decline' })));
    const declined = await callTool(client, 'request_hitl', { project_id: projectId, session_id: sessionId, question: 'Declined?' });
    const plain = await connect();
    const unasked = await callTool(plain.client, 'request_hitl', { project_id: projectId, session_id: sessionId, question: 'Not asked' });
    // The decline has come back when the question is no longer open in the client.
    await waitUntil(async () => (await run.http.get(`/hitl/${declined.value.id}?wait=1`)).body.status === 'pending', 5_000, 'still pending');
    expect((await run.http.get(`/hitl/${unasked.value.id}`)).body.status).toBe('pending');
    const answered = await run.http.patch(`/hitl/${declined.value.id}`, { answer: 'From the dashboard', answered_by: 'ada' });
    expect(answered.body).toMatchObject({ status: 'answered', answered_by: 'ada' });
  });

  test('elicitation: a dashboard answer ends the question in the client', async () => {
    let ended = false;
    let opened = false;
    const { client } = await connect(ELICITATION, (c) =>
      c.setRequestHandler(
        ElicitRequestSchema,
        (_request, extra) =>
          new Promise<ElicitResult>((resolve) => {
            opened = true;
            extra.signal.addEventListener('abort', () => {
              ended = true;
              resolve({ action: 'cancel' });
            });
          }),
      ),
    );
    const created = await callTool(client, 'request_hitl', { project_id: projectId, session_id: sessionId, question: 'Dashboard wins?' });
    await waitUntil(() => opened, 5_000, 'the question in the client');
    const answer = await run.http.patch(`/hitl/${created.value.id}`, { answer: 'Dashboard', answered_by: 'ada' });
    expect(answer.status).toBe(200);
    await waitUntil(() => ended, 5_000, 'the question withdrawn');
    expect((await run.http.get(`/hitl/${created.value.id}`)).body).toMatchObject({ answer: 'Dashboard', answered_by: 'ada' });
  });

  test('a dropped event stream resumes with Last-Event-ID and loses no notification; DELETE ends the session', async () => {
    const raw = new RawSession(run.http, run.token);
    await raw.open();
    expect(raw.id).toMatch(/^[0-9a-f-]{36}$/);
    const uri = `baton://projects/${projectId}/goal`;
    expect((await raw.post({ jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri } })).body.result).toEqual({});
    await run.http.post(`/projects/${projectId}/goal`, { content: 'First' });
    const [first] = await raw.readEvents(1);
    expect(first.data).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    // The stream is gone; two changes happen meanwhile.
    await run.http.post(`/projects/${projectId}/goal`, { content: 'Second' });
    await run.http.post(`/projects/${projectId}/goal`, { content: 'Third' });
    const resumed = await raw.readEvents(2, first.id);
    expect(resumed.map((e) => e.data.params.uri)).toEqual([uri, uri]);
    expect(Number(resumed[0].id)).toBeGreaterThan(Number(first.id));

    const end = await run.http.delete('/mcp', undefined, { 'mcp-session-id': raw.id });
    expect(end.status).toBe(200);
    expect((await raw.post({ jsonrpc: '2.0', id: 3, method: 'ping' })).status).toBe(404);
  });
});

describeRedis('MCP sessions across two instances (Postgres, Redis)', () => {
  let db: TestDatabase;
  let one: TestApp;
  let two: TestApp;
  let projectId: string;
  let sessionId: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    db = await TestDatabase.create();
    // Polling every 5 s: an update within that time came through Redis.
    const env = { SERVICE_DB_URL: db.url, SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('mcp-sessions'), SERVICE_POLL_INTERVAL_MS: '5000' };
    one = await startApp(env);
    two = await startApp(env);
    const http = new Http(two.url);
    projectId = (await http.post('/projects', { name: 'Two instances' })).body.id;
    sessionId = (await http.post('/sessions/register', { project_id: projectId, name: 'asker' })).body.id;
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  test('subscribed on one instance, written on the other: the update arrives', async () => {
    const { client } = await connectMcpSession(one.url);
    clients.push(client);
    const updates = updatesOf(client);
    await client.subscribeResource({ uri: `baton://projects/${projectId}/sprint` });
    await new Http(two.url).post(`/projects/${projectId}/sprint-items`, { title: 'Written elsewhere', version: 'v1' });
    await waitUntil(() => updates.length > 0, 4_000, 'the update through Redis');
    expect(updates).toEqual([`baton://projects/${projectId}/sprint`]);
  });

  test('the SDK client whose stream is cut resumes it on the other instance with Last-Event-ID, and loses no notification', async () => {
    const proxy = await switchingProxy(one.url);
    try {
      const { client } = await connectMcpSession(proxy.url);
      clients.push(client);
      const updates = updatesOf(client);
      const uri = `baton://projects/${projectId}/goal`;
      await client.subscribeResource({ uri });
      const writer = new Http(two.url);
      await writer.post(`/projects/${projectId}/goal`, { content: 'Before the cut' });
      await waitUntil(() => updates.length === 1, 4_000, 'the first update');
      // The instance the stream was on is left behind; a change lands while the client reconnects.
      proxy.switchTo(two.url);
      proxy.cut();
      await writer.post(`/projects/${projectId}/goal`, { content: 'During the cut' });
      await waitUntil(() => updates.length === 2, 8_000, 'the update made during the cut');
      expect(updates).toEqual([uri, uri]);
      expect(proxy.lastEventIds.length).toBeGreaterThan(0);
      expect(proxy.lastEventIds[0]).toMatch(/^\d+$/);
      await client.close();
    } finally {
      await proxy.close();
    }
  });

  test('a question asked in a client through one instance is withdrawn when the dashboard answers it on the other', async () => {
    let opened = false;
    let ended = false;
    const { client } = await connectMcpSession(one.url, undefined, ELICITATION, (c) =>
      c.setRequestHandler(
        ElicitRequestSchema,
        (_request, extra) =>
          new Promise<ElicitResult>((resolve) => {
            opened = true;
            extra.signal.addEventListener('abort', () => {
              ended = true;
              resolve({ action: 'cancel' });
            });
          }),
      ),
    );
    clients.push(client);
    const created = await callTool(client, 'request_hitl', { project_id: projectId, session_id: sessionId, question: 'Answered elsewhere?' });
    await waitUntil(() => opened, 4_000, 'the question in the client');
    expect((await new Http(two.url).patch(`/hitl/${created.value.id}`, { answer: 'On the dashboard', answered_by: 'ada' })).status).toBe(200);
    await waitUntil(() => ended, 4_000, 'the question withdrawn');
  });

  test('any instance serves a session: requests and the answer to an elicitation posted to the other instance', async () => {
    const { client, transport } = await connectMcpSession(one.url, undefined, ELICITATION, (c) =>
      c.setRequestHandler(ElicitRequestSchema, (): ElicitResult => ({ action: 'accept', content: { answer: 'From the client' } })),
    );
    clients.push(client);
    const raw = new RawSession(new Http(two.url));
    raw.id = transport.sessionId!;
    const read = await raw.post({ jsonrpc: '2.0', id: 5, method: 'resources/read', params: { uri: `baton://projects/${projectId}/hitl` } });
    expect(read.body.result.contents[0].mimeType).toBe('application/json');
    // The question is asked from the instance the call reached, to the stream open on the other; a waiter on the second wakes.
    const created = await raw.post({
      jsonrpc: '2.0',
      id: 6,
      method: 'tools/call',
      params: { name: 'request_hitl', arguments: { project_id: projectId, session_id: sessionId, question: 'Across?' } },
    });
    const id = JSON.parse(created.body.result.content[0].text).id;
    const answered = (await new Http(two.url).get(`/hitl/${id}?wait=10`)).body;
    expect(answered).toMatchObject({ status: 'answered', answer: 'From the client', answered_by: 'mcp-client:baton-tests' });
  });
});

describe.each(hostedBackend())('MCP resources and the tool-call budget on %s', (_name, backend) => {
  let run: RunningBackend;
  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '4' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('resource reads and subscriptions take nothing from the budget; tool calls still do', async () => {
    const projectId = (await run.http.post('/projects', { name: 'Budget' })).body.id;
    const raw = new RawSession(run.http, run.token);
    // initialize and notifications/initialized: two calls of four.
    await raw.open();
    const uri = `baton://projects/${projectId}/sprint`;
    for (let i = 0; i < 6; i++) {
      const read = await raw.post({ jsonrpc: '2.0', id: 10 + i, method: 'resources/read', params: { uri } });
      expect(read.status).toBe(200);
      expect(read.body.result.contents[0].uri).toBe(uri);
    }
    expect((await raw.post({ jsonrpc: '2.0', id: 20, method: 'resources/subscribe', params: { uri } })).status).toBe(200);
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'get_project', arguments: { project_id: projectId } } };
    expect((await raw.post({ ...call, id: 21 })).status).toBe(200);
    expect((await raw.post({ ...call, id: 22 })).status).toBe(200);
    const over = await raw.post({ ...call, id: 23 });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
  });

  test('a session answers only the credential that opened it: another token, or another tenant, is told it does not exist', async () => {
    // Tenants of their own: the test above spent the budget of this backend's token.
    const owner = await tenantClient(run.testApp, 'mcp-owner');
    const raw = new RawSession(owner.http, owner.token);
    await raw.open();
    expect(raw.id).toMatch(/^[0-9a-f-]{36}$/);
    const other = await tenantClient(run.testApp, 'mcp-other');
    const theirs = new RawSession(other.http, other.token);
    theirs.id = raw.id;
    const refused = await theirs.post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe(-32001);
    const stream = await fetch(new URL('/mcp', run.testApp.url), { headers: { accept: 'text/event-stream', 'mcp-session-id': raw.id, authorization: `Bearer ${other.token}` } });
    expect(stream.status).toBe(404);
    // Another token of the same workspace.
    const second = (await owner.http.post('/auth/tokens', { label: 'second' })).body.token;
    const sibling = new RawSession(new Http(run.testApp.url, second), second);
    sibling.id = raw.id;
    expect((await sibling.post({ jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(404);
    expect((await raw.post({ jsonrpc: '2.0', id: 3, method: 'ping' })).body.result).toEqual({});
  });
});

describe.each(hostedBackend())('MCP session warnings of the budget on %s', (_name, backend) => {
  let run: RunningBackend;
  const clients: Client[] = [];
  beforeAll(async () => {
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '20' });
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await run?.stop();
  });

  test('the call that leaves a tenth of the MCP budget is followed by a warning to the session', async () => {
    const projectId = (await run.http.post('/projects', { name: 'Nearly spent' })).body.id;
    const { client } = await connectMcpSession(run.testApp.url, run.token);
    clients.push(client);
    const messages: { level: string; data: any }[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void messages.push(n.params));
    // initialize, notifications/initialized and this: 3 of 20; the 17th call leaves 2.
    await client.setLoggingLevel('warning');
    for (let i = 0; i < 14; i++) expect((await callTool(client, 'get_project', { project_id: projectId })).isError).toBe(false);
    expect(messages).toEqual([]);
    await callTool(client, 'get_project', { project_id: projectId });
    await waitUntil(() => messages.length > 0, 5_000, 'the budget warning');
    expect(messages).toEqual([{ level: 'warning', logger: 'baton', data: expect.objectContaining({ code: 'BUDGET_NEARLY_SPENT' }) }]);
  });
});
