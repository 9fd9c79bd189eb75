import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { callTool, connectMcp, mcpError } from './support/mcp-client';
import { tenantClient } from './support/tenant-client';

/** The text of a prompt's one message. */
async function promptText(client: Client, name: string, args: Record<string, string>): Promise<string> {
  const { messages } = await client.getPrompt({ name, arguments: args });
  expect(messages).toHaveLength(1);
  expect(messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
  return (messages[0].content as { text: string }).text;
}

describe.each(eachBackend())('MCP prompts and completion on %s', (_name, backend) => {
  let run: RunningBackend;
  let client: Client;
  let project: { id: string; name: string };
  let session: { id: string; name: string };

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    project = (await run.http.post('/projects', { name: 'Lighthouse' })).body;
    await run.http.post('/projects', { name: 'Lightship' });
    session = (await run.http.post('/sessions/register', { project_id: project.id, name: 'keeper' })).body;
    client = await connectMcp(run.testApp.url, run.token);
  });
  afterAll(async () => {
    await client?.close();
    await run?.stop();
  });

  test('prompts/list lists the four workflow prompts with descriptions and their arguments', async () => {
    expect(client.getServerCapabilities()).toMatchObject({ prompts: {}, completions: {} });
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['start_session', 'hand_off', 'ask_human', 'close_out']);
    for (const prompt of prompts) {
      expect(prompt.description).toEqual(expect.any(String));
      expect(prompt.arguments?.[0]).toMatchObject({ name: 'project', required: true });
    }
    expect(prompts.find((p) => p.name === 'close_out')?.arguments?.map((a) => [a.name, a.required])).toEqual([
      ['project', true],
      ['session', true],
      ['sprint_item', false],
    ]);
  });

  test("start_session carries the project's context block as it is when got, by name or by id", async () => {
    await run.http.post(`/projects/${project.id}/goal`, { content: 'Keep the light burning' });
    const blockResult = await client.callTool({ name: 'get_context_block', arguments: { project_id: project.id } });
    const block = (blockResult.content as { text: string }[])[0].text;
    expect(block).toContain('Keep the light burning');
    const byName = await promptText(client, 'start_session', { project: 'lighthouse', session: 'night shift' });
    expect(byName).toContain(`Call start_session with project_id ${project.id}, name "night shift"`);
    expect(byName).toContain(block);
    expect(byName).toContain('Keep the light burning');

    await run.http.post(`/projects/${project.id}/goal`, { content: 'Paint the tower red' });
    const byId = await promptText(client, 'start_session', { project: project.id });
    expect(byId).toContain('Paint the tower red');
    expect(byId).not.toContain('night shift');
  });

  test('hand_off, ask_human and close_out show what the session holds now: its claimed item, its file lock, its pending question', async () => {
    const item = (await callTool(client, 'add_sprint_item', { project_id: project.id, version: 'v1', title: 'Replace the lamp' })).value;
    expect((await callTool(client, 'claim_sprint_item', { project_id: project.id, item_id: item.id, session_id: session.id })).isError).toBe(false);
    expect((await callTool(client, 'claim_file', { session_id: session.id, file_path: 'src/lamp.ts' })).isError).toBe(false);
    const hitl = (await run.http.post(`/projects/${project.id}/hitl`, { session_id: session.id, question: 'Which bulb?' })).body;

    const handOff = await promptText(client, 'hand_off', { project: 'Lighthouse', session: 'keeper' });
    expect(handOff).toContain(`generate_handoff with project_id ${project.id}, session_id ${session.id}`);
    expect(handOff).toContain(`${item.id} "Replace the lamp" (in_progress)`);
    expect(handOff).toContain('file locks: src/lamp.ts');
    expect(handOff).toContain(`${hitl.id} "Which bulb?"`);

    const ask = await promptText(client, 'ask_human', { project: project.id, session: session.id, question: 'LED or halogen?' });
    expect(ask).toContain('"LED or halogen?"');
    expect(ask).toContain(`request_hitl with project_id ${project.id}, session_id ${session.id}`);
    expect(ask).toContain(`- ${hitl.id} [normal, for`);
    expect(ask).toContain('asked by this session]: Which bulb?');

    const close = await promptText(client, 'close_out', { project: 'Lighthouse', session: 'keeper', sprint_item: item.id });
    expect(close).toContain(`complete_sprint_item for ${item.id} ("Replace the lamp")`);
    expect(close).toContain(`close_session with session_id ${session.id}`);
    expect(close).toContain('file locks: src/lamp.ts');

    await run.http.patch(`/hitl/${hitl.id}`, { answer: 'LED' });
    expect(await promptText(client, 'close_out', { project: 'Lighthouse', session: 'keeper' })).toContain('- no pending question');
  });

  test('bad prompt requests are InvalidParams errors naming what is wrong', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['nope', { project: project.id }, /unknown prompt: nope/],
      ['start_session', {}, /project is required/],
      ['start_session', { project: 'Atlantis' }, /project: no project has the id or name "Atlantis"/],
      ['hand_off', { project: project.id }, /session is required/],
      ['hand_off', { project: project.id, session: 'ghost' }, /session: no active session of this project has the id or name "ghost"/],
      ['start_session', { project: project.id, colour: 'red' }, /unknown argument colour of the prompt start_session/],
      ['close_out', { project: project.id, session: 'keeper', sprint_item: 'nothing' }, /sprint_item: no unfinished sprint item/],
    ];
    for (const [name, args, message] of cases) {
      const error = await mcpError(client.getPrompt({ name, arguments: args }));
      expect(error.code).toBe(ErrorCode.InvalidParams);
      expect(error.message).toMatch(message);
    }
  });

  test('completion/complete suggests project names and ids, session names and sprint item ids from what exists', async () => {
    const complete = async (argument: string, value: string, context: Record<string, string> = {}, prompt = 'close_out') =>
      (await client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value }, context: { arguments: context } })).completion;

    expect((await complete('project', 'light')).values).toEqual(['Lighthouse', 'Lightship']);
    expect((await complete('project', 'LIGHTH')).values).toEqual(['Lighthouse']);
    expect((await complete('project', project.id.slice(0, 8))).values).toEqual([project.id]);
    expect((await complete('session', 'kee', { project: 'Lighthouse' })).values).toEqual(['keeper']);
    expect((await complete('session', '', { project: project.id })).values).toEqual(['keeper']);
    expect((await complete('session', 'kee')).values).toEqual([]);
    const item = (await callTool(client, 'add_sprint_item', { project_id: project.id, version: 'v1', title: 'Clean the lens' })).value;
    expect((await complete('sprint_item', 'lens', { project: 'Lighthouse' })).values).toEqual([item.id]);
    expect((await complete('sprint_item', item.id.slice(0, 6), { project: 'Lighthouse' })).values).toEqual([item.id]);
    expect((await complete('project', 'zzz')).values).toEqual([]);
    const unknown = await mcpError(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'project', value: '' } }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
  });
});

describe.each(hostedBackend())('MCP prompts and completion between tenants on %s', (_name, backend) => {
  let run: RunningBackend;

  beforeAll(async () => {
    run = await backend.start({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await run?.stop();
  });

  test("a tenant's names are never suggested to another tenant, nor its projects readable through a prompt", async () => {
    const secret = (await run.http.post('/projects', { name: 'Secret Harbour' })).body;
    await run.http.post('/sessions/register', { project_id: secret.id, name: 'smuggler' });
    const stranger = await tenantClient(run.testApp, 'tenant-b');
    await stranger.http.post('/projects', { name: 'Sunny Beach' });
    const theirs = await connectMcp(run.testApp.url, stranger.token);
    const mine = await connectMcp(run.testApp.url, run.token);
    try {
      const complete = async (client: Client, argument: string, value: string, context: Record<string, string> = {}) =>
        (await client.complete({ ref: { type: 'ref/prompt', name: 'hand_off' }, argument: { name: argument, value }, context: { arguments: context } })).completion.values;
      expect(await complete(theirs, 'project', 's')).toEqual(['Sunny Beach']);
      expect(await complete(theirs, 'project', '')).not.toContain('Secret Harbour');
      expect(await complete(theirs, 'project', secret.id.slice(0, 8))).toEqual([]);
      expect(await complete(theirs, 'session', '', { project: secret.id })).toEqual([]);
      expect(await complete(mine, 'project', 's')).toEqual(['Secret Harbour']);
      expect(await complete(mine, 'session', '', { project: 'Secret Harbour' })).toEqual(['smuggler']);
      const error = await mcpError(theirs.getPrompt({ name: 'start_session', arguments: { project: secret.id } }));
      expect(error.message).toMatch(/no project has the id or name/);
    } finally {
      await theirs.close();
      await mine.close();
    }
  });
});
