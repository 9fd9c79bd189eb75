import { Message, Role, TaskState } from '@a2a-js/sdk';
import { randomUUID } from 'node:crypto';
import { a2aClient, a2aMessage } from './support/a2a-client';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { freePort } from './support/processes';
import { createProject } from './support/projects';
import { tenantClient } from './support/tenant-client';

const sdkMessage = (text: string): Message => ({
  messageId: randomUUID(),
  contextId: '',
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
  metadata: { sender: 'release-bot' },
  extensions: [],
  referenceTaskIds: [],
});

describe.each(eachBackend())('A2A on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    // The card names the endpoint under APP_URL, so APP_URL names the port the official client must reach.
    const port = await freePort();
    run = await backend.start({ SERVICE_MCP_RATE_LIMIT: '1000000', APP_URL: `http://127.0.0.1:${port}`, SERVICE_PORT: String(port) });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('the agent card is served at /.well-known/agent.json (GET and POST) and /.well-known/agent-card.json, without credentials, describing the skills', async () => {
    const anonymous = new Http(run.testApp.url);
    const cards = [await anonymous.get('/.well-known/agent.json'), await anonymous.post('/.well-known/agent.json'), await anonymous.get('/.well-known/agent-card.json')];
    for (const card of cards) {
      expect(card.status).toBe(200);
      expect(card.body).toMatchObject({
        name: 'Baton',
        supportedInterfaces: [{ url: `${run.testApp.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        skills: expect.arrayContaining([expect.objectContaining({ id: 'hand-over-task' })]),
      });
    }
    expect(cards[0].headers.get('access-control-allow-origin')).toBe('*');
    const hosted = run.token !== undefined;
    expect(Object.keys(cards[0].body.securitySchemes ?? {})).toEqual(hosted ? ['bearer'] : []);
  });

  test('the official client sends a task: stored as submitted, visible to the sessions (context block, list_a2a_tasks), moved by update_a2a_task and read back by the agent', async () => {
    const project = await createProject(run.http, 'A2A target');
    const client = await a2aClient(run.testApp.url, project, run.token);
    const sent = await client.sendMessage({
      tenant: '',
      message: sdkMessage('Upgrade the payment SDK\nThe old one is end of life'),
      configuration: undefined,
      metadata: undefined,
    });
    if (!('status' in sent)) throw new Error('expected a task');
    expect(sent.status?.state).toBe(TaskState.TASK_STATE_SUBMITTED);
    expect(sent.history[0].parts[0].content).toEqual({ $case: 'text', value: 'Upgrade the payment SDK\nThe old one is end of life' });

    const block = await run.http.get(`/projects/${project}/context-block`);
    expect(block.text).toContain('Tasks from other agents');
    expect(block.text).toContain(`[submitted] Upgrade the payment SDK (from release-bot) — task ${sent.id}`);

    const mcp = await connectMcp(run.testApp.url, run.token);
    try {
      const listed = await callTool(mcp, 'list_a2a_tasks', { project_id: project });
      expect(listed.value).toMatchObject({ total: 1, tasks: [{ id: sent.id, state: 'submitted', title: 'Upgrade the payment SDK', sender: 'release-bot' }] });
      const working = await callTool(mcp, 'update_a2a_task', { task_id: sent.id, state: 'working', note: 'On it', human_id: 'ana' });
      expect(working.value).toMatchObject({ state: 'working', status_note: 'On it', updated_by: 'ana' });
      const seen = await client.getTask({ tenant: '', id: sent.id });
      expect(seen.status?.state).toBe(TaskState.TASK_STATE_WORKING);
      expect(seen.status?.message?.parts[0].content).toEqual({ $case: 'text', value: 'On it' });
      await callTool(mcp, 'update_a2a_task', { task_id: sent.id, state: 'completed', note: 'Merged' });
      expect((await client.getTask({ tenant: '', id: sent.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      const closed = await callTool(mcp, 'update_a2a_task', { task_id: sent.id, state: 'working' });
      expect(closed.structured).toMatchObject({ code: 'A2A_TASK_CLOSED', state: 'completed' });
      expect((await callTool(mcp, 'list_a2a_tasks', { project_id: project })).value.total).toBe(0);
      expect((await callTool(mcp, 'list_a2a_tasks', { project_id: project, state: 'all' })).value.total).toBe(1);
      expect((await run.http.get(`/projects/${project}/context-block`)).text).not.toContain('Tasks from other agents');
    } finally {
      await mcp.close();
    }

    const open = await client.sendMessage({ tenant: '', message: sdkMessage('Cancel me'), configuration: undefined, metadata: undefined });
    if (!('status' in open)) throw new Error('expected a task');
    const canceled = await client.cancelTask({ tenant: '', id: open.id, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(client.cancelTask({ tenant: '', id: open.id, metadata: undefined })).rejects.toThrow(/canceled/);
    await expect(client.getTask({ tenant: '', id: randomUUID() })).rejects.toThrow(/not found/);
  });

  test('POST /a2a/{agent_id}/tasks/send stores the task as submitted and returns the envelope; GET /a2a/{agent_id}/tasks/{task_id} answers its state', async () => {
    const project = await createProject(run.http, 'A2A REST');
    const sent = await run.http.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('Write the release notes') });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({
      task: {
        id: expect.any(String),
        contextId: expect.any(String),
        status: { state: 'TASK_STATE_SUBMITTED', timestamp: expect.any(String) },
        history: [expect.objectContaining({ role: 'ROLE_USER', parts: [{ text: 'Write the release notes' }] })],
        metadata: { project_id: project, title: 'Write the release notes' },
      },
    });
    const got = await run.http.get(`/a2a/${project}/tasks/${sent.body.task.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(sent.body.task);
    // A retried message (same messageId) answers the task the first send made.
    const message = a2aMessage('Send me twice');
    const once = (await run.http.post(`/a2a/${project}/tasks/send`, { message })).body.task;
    const twice = await run.http.post(`/a2a/${project}/tasks/send`, { message });
    expect([twice.status, twice.body.task.id]).toEqual([200, once.id]);
    const viaTenant = await run.http.post('/a2a', { jsonrpc: '2.0', id: 7, method: 'GetTask', params: { tenant: project, id: sent.body.task.id } });
    expect(viaTenant.body).toMatchObject({ jsonrpc: '2.0', id: 7, result: { id: sent.body.task.id } });
  });

  test('bad input: 4xx with a detail naming what is wrong, and nothing stored', async () => {
    const project = await createProject(run.http, 'A2A bad input');
    const cases: [string, unknown, string][] = [
      [`/a2a/${project}/tasks/send`, {}, 'message is required'],
      [`/a2a/${project}/tasks/send`, { message: a2aMessage('') }, 'non-empty text part'],
      [`/a2a/${project}/tasks/send`, { message: a2aMessage('x', { role: 'ROLE_AGENT' }) }, 'message.role'],
      [`/a2a/${project}/tasks/send`, { message: a2aMessage('x'), surprise: 1 }, 'unknown field surprise'],
      [`/a2a/${project}/tasks/send`, '[1,2]', 'JSON object'],
      [`/a2a/${project}/tasks/send`, { message: { ...a2aMessage('x'), parts: 'text' } }, 'message.parts'],
      [`/a2a/not-a-uuid/tasks/send`, { message: a2aMessage('x') }, 'agent_id'],
      [`/a2a/${project}`, { jsonrpc: '1.0', id: 1, method: 'GetTask' }, 'jsonrpc'],
      [`/a2a/${project}`, { jsonrpc: '2.0', id: 1, method: 'DeleteEverything', params: {} }, 'not supported'],
      [`/a2a/${project}`, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }, 'params.id'],
      ['/a2a', { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: randomUUID() } }, 'params.tenant'],
    ];
    for (const [path, body, detail] of cases) {
      const res = await run.http.post(path, body);
      expect([res.status, res.body?.detail]).toEqual([400, expect.stringContaining(detail)]);
    }
    expect((await run.http.get(`/a2a/${project}/tasks/not-a-uuid`)).status).toBe(400);
    expect((await run.http.get(`/a2a/${randomUUID()}/.well-known/agent-card.json`)).body.code).toBe('A2A_AGENT_NOT_FOUND');
    expect((await run.http.get(`/a2a/${project}/.well-known/agent.json`)).body.supportedInterfaces[0].url).toMatch(new RegExp(`/a2a/${project}$`));
    const unknownAgent = await run.http.post(`/a2a/${randomUUID()}/tasks/send`, { message: a2aMessage('x') });
    expect([unknownAgent.status, unknownAgent.body.code]).toEqual([404, 'A2A_AGENT_NOT_FOUND']);
    expect((await run.http.get(`/a2a/${project}/tasks/${randomUUID()}`)).body.code).toBe('A2A_TASK_NOT_FOUND');
    const mcp = await connectMcp(run.testApp.url, run.token);
    try {
      expect((await callTool(mcp, 'list_a2a_tasks', { project_id: project, state: 'all' })).value.total).toBe(0);
      expect((await callTool(mcp, 'update_a2a_task', { task_id: randomUUID(), state: 'submitted' })).text).toContain('state must be one of');
      expect((await callTool(mcp, 'list_a2a_tasks', { project_id: project, state: 'sleeping' })).text).toContain('state must be one of');
    } finally {
      await mcp.close();
    }
  });
});

describe.each(hostedBackend())('A2A across tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    const port = await freePort();
    run = await backend.start({ APP_URL: `http://127.0.0.1:${port}`, SERVICE_PORT: String(port) });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("needs the workspace's token, and another tenant's agent and task ids answer as missing", async () => {
    const project = await createProject(run.http, 'Tenant A agent');
    const sent = (await run.http.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('Tenant A work') })).body.task;
    const anonymous = new Http(run.testApp.url);
    expect((await anonymous.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('x') })).status).toBe(401);
    expect((await anonymous.get(`/a2a/${project}/tasks/${sent.id}`)).status).toBe(401);
    expect((await anonymous.get(`/a2a/${project}/.well-known/agent-card.json`)).status).toBe(401);
    const other = await tenantClient(run.testApp, 'other');
    const theirs = await createProject(other.http, 'Tenant B agent');
    expect((await other.http.get(`/a2a/${project}/tasks/${sent.id}`)).body.code).toBe('A2A_AGENT_NOT_FOUND');
    expect((await other.http.get(`/a2a/${project}/.well-known/agent-card.json`)).body.code).toBe('A2A_AGENT_NOT_FOUND');
    expect((await other.http.get(`/a2a/${theirs}/tasks/${sent.id}`)).body.code).toBe('A2A_TASK_NOT_FOUND');
    expect((await other.http.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('intrude') })).status).toBe(404);
    const theirClient = await a2aClient(run.testApp.url, theirs, other.token);
    await expect(theirClient.getTask({ tenant: '', id: sent.id })).rejects.toThrow(/not found/);
    const mcp = await connectMcp(run.testApp.url, other.token);
    try {
      expect((await callTool(mcp, 'update_a2a_task', { task_id: sent.id, state: 'working' })).structured).toMatchObject({ code: 'A2A_TASK_NOT_FOUND' });
      expect((await callTool(mcp, 'list_a2a_tasks', { project_id: project })).structured).toMatchObject({ code: 'A2A_AGENT_NOT_FOUND' });
    } finally {
      await mcp.close();
    }
    expect((await run.http.get(`/a2a/${project}/tasks/${sent.id}`)).body.status.state).toBe('TASK_STATE_SUBMITTED');
  });

  test('a read-scope token reads tasks (GET and GetTask) but cannot send or cancel one', async () => {
    const project = await createProject(run.http, 'Read-only agent');
    const sent = (await run.http.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('Work for the team') })).body.task;
    const token = (await run.http.post('/auth/tokens', { label: 'wall screen', scope: 'read' })).body.token;
    const reader = new Http(run.testApp.url, token);
    expect((await reader.get(`/a2a/${project}/tasks/${sent.id}`)).status).toBe(200);
    const got = await reader.post(`/a2a/${project}`, { jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: sent.id } });
    expect(got.body).toMatchObject({ result: { id: sent.id } });
    expect((await reader.post(`/a2a/${project}/tasks/send`, { message: a2aMessage('x') })).status).toBe(403);
    for (const [method, params] of [
      ['SendMessage', { message: a2aMessage('x') }],
      ['CancelTask', { id: sent.id }],
    ] as const) {
      const res = await reader.post(`/a2a/${project}`, { jsonrpc: '2.0', id: 2, method, params });
      expect([res.status, res.body.detail]).toEqual([403, expect.stringContaining('read scope')]);
    }
    expect((await run.http.get(`/a2a/${project}/tasks/${sent.id}`)).body.status.state).toBe('TASK_STATE_SUBMITTED');
  });
});
