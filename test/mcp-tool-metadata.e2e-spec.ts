import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { callTool, connectMcp } from './support/mcp-client';
import { startApp, TestApp } from './support/test-app';
import { CORE_TOOLS } from './support/core-tools';

/** The tools of the default (core) listing: they answer structured content. */
const CORE = CORE_TOOLS;

interface ListedTool {
  name: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

describe('MCP tool annotations, output schemas and listing size', () => {
  let testApp: TestApp;
  let tools: ListedTool[];

  /** A client of its own per test (an idle kept-alive connection may be closed under it), listing first: from then on the SDK client checks every structured result against the tool's outputSchema. */
  async function listingClient(): Promise<{ client: Client; listed: ListedTool[] }> {
    const client = await connectMcp(testApp.url, undefined, 'http', 'all');
    return { client, listed: (await client.listTools()).tools as ListedTool[] };
  }

  beforeAll(async () => {
    testApp = await startApp();
    const { client, listed } = await listingClient();
    tools = listed;
    await client.close();
  });
  afterAll(() => testApp?.close());

  test('every listed tool carries the read-only, destructive, idempotent and open-world hints', () => {
    const missing = tools.filter((t) => ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'].some((hint) => typeof t.annotations?.[hint] !== 'boolean'));
    expect(missing.map((t) => t.name)).toEqual([]);
    const hints = (name: string) => tools.find((t) => t.name === name)?.annotations;
    expect(hints('list_projects')).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(hints('delete_project')).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(hints('claim_sprint_item')).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints('update_task')).toMatchObject({ readOnlyHint: false, idempotentHint: true });
  });

  test('the core tools list an outputSchema that compiles under draft-07 and 2020-12, strict, and admits no required field', () => {
    for (const name of CORE) {
      const schema = tools.find((t) => t.name === name)?.outputSchema;
      expect({ name, type: schema?.type, required: schema?.required }).toEqual({ name, type: 'object', required: undefined });
      addFormats(new Ajv({ strict: true })).compile(schema!);
      addFormats(new Ajv2020({ strict: true })).compile(schema!);
    }
  });

  test('the SDK client calls every core tool and receives structured content that matches its outputSchema', async () => {
    const { client } = await listingClient();
    const called = new Set<string>();
    const call = async (name: string, args: Record<string, unknown> = {}) => {
      const result = await callTool(client, name, args).catch((error: Error) => {
        throw new Error(`${name}: ${error.message}`);
      });
      expect({ name, isError: result.isError, text: result.isError ? result.text : '' }).toEqual({ name, isError: false, text: '' });
      expect(result.structured).toEqual(expect.any(Object));
      called.add(name);
      return result;
    };
    const project = (await callTool(client, 'create_project', { name: 'structured results' })).value as { id: string };
    const project_id = project.id;
    expect((await call('list_projects')).structured).toEqual({ items: expect.arrayContaining([expect.objectContaining({ id: project_id })]) });

    const started = await call('start_session', { project_id, name: 'loop' });
    const session_id = started.value.session_id as string;
    expect(started.structured).toMatchObject({ session_id });
    await call('heartbeat', { session_id });
    // A text result (not JSON): its structured content carries the same text.
    const block = (await client.callTool({ name: 'get_context_block', arguments: { project_id } })) as { content: { text: string }[]; structuredContent?: unknown };
    expect(block.structuredContent).toEqual({ text: block.content[0].text });
    called.add('get_context_block');
    await call('claim_file', { session_id, file_path: 'src/app.ts' });
    await call('release_file', { session_id, file_path: 'src/app.ts' });

    for (const title of ['first item', 'second item']) await callTool(client, 'add_sprint_item', { project_id, title, version: 'v1' });
    const claimed = await call('claim_sprint_item', { project_id, session_id });
    const first = claimed.value.item.id as string;
    await call('release_sprint_item', { project_id, item_id: first, session_id });
    await call('claim_sprint_item', { project_id, session_id, item_id: first });
    expect((await call('complete_sprint_item', { project_id, item_id: first, session_id })).structured).toMatchObject({ status: 'done' });
    const second = (await call('claim_sprint_item', { project_id, session_id })).value.item.id as string;
    expect((await call('fail_sprint_item', { project_id, item_id: second, session_id, reason: 'blocked' })).structured).toMatchObject({ status: 'failed' });

    await call('log_task', { project_id, session_id, description: 'wired the loop' });
    const asked = await call('request_hitl', { project_id, session_id, question: 'ship it?' });
    await call('get_hitl_request', { request_id: asked.value.id, wait: 0 });
    await call('send_message', { project_id, session_id, broadcast: true, body: 'hello' });
    await call('receive_messages', { project_id, agent: 'reviewer' });
    const handoff = await call('generate_handoff', { project_id, session_id });
    await call('accept_handoff', { project_id, token: handoff.value.token });
    await call('add_note', { project_id, title: 'a note' });
    await call('log_decision', { project_id, title: 'structured results for the core tools' });
    await call('close_session', { session_id });
    expect((await call('list_toolsets')).structured).toMatchObject({ selected: ['all'] });
    expect((await call('enable_toolset', { toolset: 'sprint' })).structured).toMatchObject({ toolset: 'sprint', added_tools: [] });

    expect([...called].sort()).toEqual([...CORE].sort());
    await client.close();
  });

  test('a refused call of a core tool reaches the caller as an isError result, its {detail, code} body passing the client', async () => {
    const { client } = await listingClient();
    const project = (await callTool(client, 'create_project', { name: 'refusals' })).value as { id: string };
    const holder = (await callTool(client, 'start_session', { project_id: project.id, name: 'holder' })).value.session_id as string;
    const other = (await callTool(client, 'start_session', { project_id: project.id, name: 'other' })).value.session_id as string;
    expect((await callTool(client, 'claim_file', { session_id: holder, file_path: 'src/held.ts' })).isError).toBe(false);

    const refused = await callTool(client, 'claim_file', { session_id: other, file_path: 'src/held.ts' });
    expect(refused).toMatchObject({ isError: true, structured: { code: 'FILE_LOCKED', detail: refused.text } });
    const unknown = await callTool(client, 'heartbeat', { session_id: '3f2b8c1e-4a5d-4e6f-9a0b-1c2d3e4f5a6b' });
    expect(unknown).toMatchObject({ isError: true, structured: { code: 'SESSION_NOT_FOUND' } });
    const invalid = await callTool(client, 'claim_sprint_item', { project_id: project.id });
    expect(invalid).toMatchObject({ isError: true, structured: { code: 'INVALID_INPUT', detail: 'session_id is required' } });
    await client.close();
  });
});
