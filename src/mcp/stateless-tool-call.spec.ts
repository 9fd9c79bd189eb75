import type { CallToolResult, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerFactory } from './mcp-server.factory';
import { answerToolCall, plainToolCall } from './stateless-tool-call';

const call = (params: unknown, method = 'tools/call') => ({ jsonrpc: '2.0', id: 7, method, params }) as JSONRPCRequest;

/** A server factory whose `call` answers (or throws) what the case needs. */
function servers(answer: (name: string, args: unknown) => Promise<CallToolResult>): McpServerFactory {
  return { call: answer } as unknown as McpServerFactory;
}

describe('plainToolCall', () => {
  test('takes a tools/call whose params the SDK accepts', () => {
    expect(plainToolCall(call({ name: 'get_project', arguments: { project_id: 'p' } }))).toEqual({ name: 'get_project', arguments: { project_id: 'p' } });
  });

  test.each([
    ['another method', call({ name: 'get_project' }, 'tools/list')],
    ['params without a name', call({ arguments: {} })],
    ['arguments that are not an object', call({ name: 'get_project', arguments: 'p' })],
    ['a task-augmented call', call({ name: 'get_project', arguments: {}, task: { ttl: 1000 } })],
  ])('leaves %s to the server', (_case, message) => {
    expect(plainToolCall(message)).toBeUndefined();
  });
});

describe('answerToolCall', () => {
  test("answers the result in the server's field order, the result's fields in the SDK schema's", async () => {
    const reply = await answerToolCall(
      servers(async () => ({ isError: true, content: [{ type: 'text', text: 'no such project' }], structuredContent: { detail: 'no such project', code: 'NOT_FOUND' } })),
      'client-1',
      { name: 'get_project', arguments: {} },
    );
    expect(JSON.stringify(reply)).toBe(
      '{"result":{"content":[{"type":"text","text":"no such project"}],"structuredContent":{"detail":"no such project","code":"NOT_FOUND"},"isError":true},"jsonrpc":"2.0","id":"client-1"}',
    );
  });

  test('hands the name and arguments to the factory', async () => {
    const seen: unknown[] = [];
    await answerToolCall(
      servers(async (name, args) => {
        seen.push(name, args);
        return { content: [] };
      }),
      1,
      { name: 'heartbeat', arguments: { session_id: 's' } },
    );
    expect(seen).toEqual(['heartbeat', { session_id: 's' }]);
  });

  test('a thrown error is a JSON-RPC error with its code, or internal error without one', async () => {
    const coded = Object.assign(new Error('unknown tool: nope'), { code: -32602 });
    expect(
      await answerToolCall(
        servers(() => Promise.reject(coded)),
        3,
        { name: 'nope' },
      ),
    ).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'unknown tool: nope' } });
    const bare = await answerToolCall(
      servers(() => Promise.reject(new Error('boom'))),
      4,
      { name: 'x' },
    );
    expect(bare).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'boom' } });
  });

  test('a result the SDK schema refuses is invalid params, as the server answers it', async () => {
    const reply = await answerToolCall(
      servers(async () => ({ content: 'not a list' }) as unknown as CallToolResult),
      5,
      { name: 'x' },
    );
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 5, error: { code: -32602, message: expect.stringMatching(/^MCP error -32602: Invalid tools\/call result: /) } });
  });
});
