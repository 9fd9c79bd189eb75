import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp, mcpError } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';
import type { TestApp } from './support/test-app';

const ENV = { SERVICE_POLL_INTERVAL_MS: '200', SERVICE_SWEEP_INTERVAL_SECONDS: '0', SERVICE_MAX_WAIT_SECONDS: '2' };

/** A task-augmented tools/call, as a client that wants the task and not the answer sends it. */
async function callAsTask(client: Client, name: string, args: Record<string, unknown>, ttl = 120_000) {
  return (await client.request({ method: 'tools/call', params: { name, arguments: args } }, CreateTaskResultSchema, { task: { ttl } })).task;
}

describe.each(eachBackend())('MCP tasks on %s', (_name, backend) => {
  let run: RunningBackend;
  let other: TestApp;
  let otherHttp: Http;
  let projectId: string;
  let session: { id: string };
  const clients: Client[] = [];
  const open = async (url: string, transport: 'http' | 'sse' = 'http') => {
    const client = await connectMcp(url, run.token, transport);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    run = await backend.start(ENV);
    other = await run.sameStorage();
    otherHttp = new Http(other.url, run.token);
    projectId = (await run.http.post('/projects', { name: 'Tasks' })).body.id;
    session = (await run.http.post('/sessions/register', { project_id: projectId, name: 'waiter' })).body;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await other?.close();
    await run?.stop();
  });

  test('the waiting tools are listed as callable as tasks, and the server declares tasks (list, cancel, tools/call)', async () => {
    const client = await open(run.testApp.url);
    const { tools } = await client.listTools();
    const execution = Object.fromEntries(tools.filter((t) => t.execution).map((t) => [t.name, t.execution]));
    expect(execution).toEqual({ get_hitl_request: { taskSupport: 'optional' }, receive_messages: { taskSupport: 'optional' } });
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  test('get_hitl_request with wait answers at once with a working task; answered on the other instance, the task completes there with the answer', async () => {
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Ship it?' })).body;
    const a = await open(run.testApp.url);
    const task = await callAsTask(a, 'get_hitl_request', { request_id: hitl.id, wait: 600 });
    expect(task).toMatchObject({ status: 'working', ttl: 660_000, pollInterval: 1000 });

    const b = await open(other.url);
    expect((await b.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    expect((await otherHttp.patch(`/hitl/${hitl.id}`, { answer: 'yes', answered_by: 'lin' })).status).toBe(200);

    const result = await b.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.structuredContent).toMatchObject({ id: hitl.id, status: 'answered', answer: 'yes', answered_by: 'lin' });
    expect(result._meta).toEqual({ 'io.modelcontextprotocol/related-task': { taskId: task.taskId } });
    expect(await a.experimental.tasks.getTask(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'completed' });
  });

  test('receive_messages with wait_seconds as a task is cancelled through the other instance: the wait ends, no result, a later message does not revive it', async () => {
    const a = await open(run.testApp.url);
    const task = await callAsTask(a, 'receive_messages', { project_id: projectId, session_id: session.id, wait_seconds: 600 });
    expect(task.status).toBe('working');

    const b = await open(other.url);
    const cancelled = await b.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });

    await run.http.post(`/projects/${projectId}/messages`, { to_session_id: session.id, body: 'too late' });
    expect((await a.experimental.tasks.getTask(task.taskId)).status).toBe('cancelled');
    const noResult = await mcpError(a.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema));
    expect(noResult.code).toBe(ErrorCode.InvalidParams);
    expect(noResult.message).toMatch(/is cancelled: it has no result/);
    const again = await mcpError(b.experimental.tasks.cancelTask(task.taskId));
    expect(again.message).toMatch(/terminal status: cancelled/);
    // The message is still there for a plain call, which works as it always did.
    const plain = await callTool(a, 'receive_messages', { project_id: projectId, session_id: session.id });
    expect(plain.value.messages.map((m: { body: string }) => m.body)).toContain('too late');
    await run.http.post(`/projects/${projectId}/messages/ack`, { session_id: session.id, ack_through: plain.value.acked_through + 100 });
  });

  test('tasks/cancel on one instance ends a tasks/result waiting on the other', async () => {
    const a = await open(run.testApp.url);
    const b = await open(other.url);
    const task = await callAsTask(a, 'receive_messages', { project_id: projectId, session_id: session.id, wait_seconds: 600 });
    const waiting = mcpError(a.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema));
    expect(await b.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: 'cancelled' });
    expect((await waiting).message).toMatch(/is cancelled: it has no result/);
  });

  test("a task's result is there for a client that reconnects, on either instance and over either transport", async () => {
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Merge?' })).body;
    const first = await connectMcp(run.testApp.url, run.token);
    const task = await callAsTask(first, 'get_hitl_request', { request_id: hitl.id, wait: 600 });
    await first.close();

    await run.http.patch(`/hitl/${hitl.id}`, { answer: 'merged', answered_by: 'ada' });
    for (const [url, transport] of [
      [run.testApp.url, 'http'],
      [other.url, 'http'],
      [other.url, 'sse'],
    ] as const) {
      const again = await open(url, transport);
      const result = await again.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
      expect(result.structuredContent).toMatchObject({ status: 'answered', answer: 'merged' });
      expect((await again.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(task.taskId);
    }
  });

  test('a message that arrives while a receive_messages task waits completes it with the message', async () => {
    const reader = (await run.http.post('/sessions/register', { project_id: projectId, name: 'reader' })).body;
    const a = await open(run.testApp.url);
    const task = await callAsTask(a, 'receive_messages', { project_id: projectId, session_id: reader.id, wait_seconds: 600 });
    await otherHttp.post(`/projects/${projectId}/messages`, { to_session_id: reader.id, body: 'hello' });
    const result = await a.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect((result.structuredContent as { messages: { body: string }[] }).messages.map((m) => m.body)).toEqual(['hello']);
  });

  test('a call whose answer is there already, or that does not wait, is a task completed at once; a wait that runs out completes with what there is', async () => {
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Now?' })).body;
    const a = await open(run.testApp.url);
    const noWait = await callAsTask(a, 'get_hitl_request', { request_id: hitl.id });
    expect(noWait.status).toBe('completed');
    expect((await a.experimental.tasks.getTaskResult(noWait.taskId, CallToolResultSchema)).structuredContent).toMatchObject({ status: 'pending' });

    const short = await callAsTask(a, 'get_hitl_request', { request_id: hitl.id, wait: 1 });
    expect(short.status).toBe('working');
    const ranOut = await a.experimental.tasks.getTaskResult(short.taskId, CallToolResultSchema);
    expect(ranOut.structuredContent).toMatchObject({ status: 'pending' });
    expect((await a.experimental.tasks.getTask(short.taskId)).status).toBe('completed');
  });

  test("a task whose tool answers an error later (its project deleted) fails with the tool's error as its result", async () => {
    const doomed = (await run.http.post('/projects', { name: 'Doomed' })).body;
    const reader = (await run.http.post('/sessions/register', { project_id: doomed.id, name: 'reader' })).body;
    const a = await open(run.testApp.url);
    const task = await callAsTask(a, 'receive_messages', { project_id: doomed.id, session_id: reader.id, wait_seconds: 600 });
    expect(task.status).toBe('working');
    expect((await otherHttp.delete(`/projects/${doomed.id}`)).status).toBeLessThan(300);
    const result = await a.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    expect((await a.experimental.tasks.getTask(task.taskId)).status).toBe('failed');
  });

  test('bad task calls are JSON-RPC errors that name the problem and record nothing; plain calls are unchanged', async () => {
    const a = await open(run.testApp.url);
    const before = (await a.experimental.tasks.listTasks()).tasks.length;
    const notWaiting = await mcpError(callAsTask(a, 'list_projects', {}));
    expect(notWaiting.code).toBe(ErrorCode.MethodNotFound);
    expect(notWaiting.message).toMatch(/list_projects does not run as a task/);
    const unknown = await mcpError(callAsTask(a, 'get_hitl_request', { request_id: randomUUID(), wait: 60 }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    expect(unknown.message).toMatch(/hitl request not found/);
    const badWait = await mcpError(callAsTask(a, 'receive_messages', { project_id: projectId, session_id: session.id, wait_seconds: 'soon' }));
    expect(badWait.message).toMatch(/wait_seconds must be a number/);
    const longWait = await mcpError(callAsTask(a, 'get_hitl_request', { request_id: randomUUID(), wait: 3601 }));
    expect(longWait.message).toMatch(/wait must not be greater than 3600/);
    expect((await a.experimental.tasks.listTasks()).tasks).toHaveLength(before);
    const missing = await mcpError(a.experimental.tasks.getTask(randomUUID()));
    expect(missing.code).toBe(ErrorCode.InvalidParams);
    expect((await mcpError(a.experimental.tasks.getTask('not-a-task'))).code).toBe(ErrorCode.InvalidParams);

    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Plain?' })).body;
    const plain = await callTool(a, 'get_hitl_request', { request_id: hitl.id, wait: 0 });
    expect(plain).toMatchObject({ isError: false, value: { id: hitl.id, status: 'pending' } });
  });
});

describe.each(hostedBackend())('MCP tasks of hosted tenants and tokens on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start(ENV);
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a read-scope token may wait on a question as a task and cancel its wait; receive_messages, which acknowledges, is refused at once', async () => {
    const projectId = (await run.http.post('/projects', { name: 'Wall screen' })).body.id;
    const session = (await run.http.post('/sessions/register', { project_id: projectId, name: 'screen' })).body;
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Lights on?' })).body;
    const readToken = (await run.http.post('/auth/tokens', { label: 'wall screen', scope: 'read' })).body.token;
    const reader = await connectMcp(run.testApp.url, readToken);
    try {
      const task = await callAsTask(reader, 'get_hitl_request', { request_id: hitl.id, wait: 600 });
      expect(task.status).toBe('working');
      expect(await reader.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: 'cancelled' });
      const refused = await mcpError(callAsTask(reader, 'receive_messages', { project_id: projectId, session_id: session.id, wait_seconds: 60 }));
      expect(refused.code).toBe(ErrorCode.InvalidParams);
      expect(refused.data).toMatchObject({ code: 'READ_ONLY_TOKEN' });
    } finally {
      await reader.close();
    }
  });

  test("another tenant neither lists, reads, waits on nor cancels a tenant's task", async () => {
    const projectId = (await run.http.post('/projects', { name: 'Mine' })).body.id;
    const session = (await run.http.post('/sessions/register', { project_id: projectId, name: 'mine' })).body;
    const hitl = (await run.http.post(`/projects/${projectId}/hitl`, { session_id: session.id, question: 'Private?' })).body;
    const mine = await connectMcp(run.testApp.url, run.token);
    const stranger = await tenantClient(run.testApp, 'tenant-b');
    const theirs = await connectMcp(run.testApp.url, stranger.token);
    try {
      const task = await callAsTask(mine, 'get_hitl_request', { request_id: hitl.id, wait: 600 });
      expect((await theirs.experimental.tasks.listTasks()).tasks).toEqual([]);
      for (const attempt of [
        theirs.experimental.tasks.getTask(task.taskId),
        theirs.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema),
        theirs.experimental.tasks.cancelTask(task.taskId),
      ]) {
        expect((await mcpError(attempt)).message).toMatch(/not found/i);
      }
      expect((await mine.experimental.tasks.getTask(task.taskId)).status).toBe('working');
    } finally {
      await mine.close();
      await theirs.close();
    }
  });
});
