import type { CallToolRequest, JSONRPCMessage, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { parsedRequest } from './json-rpc-params.util';
import type { McpServerFactory } from './mcp-server.factory';
import { mcpSdk } from './sdk';

/**
 * The params of a `tools/call` the stateless path may run without the shared
 * server, or undefined. Only a plain call qualifies: params the SDK's own
 * CallToolRequestSchema accepts, and no `task` (a task-augmented call is the
 * server's: it opens an MCP task, tasks/).
 */
export function plainToolCall(message: JSONRPCRequest): CallToolRequest['params'] | undefined {
  if (message.method !== 'tools/call') return undefined;
  // Parsed already when its params were checked (invalidParamsReply), as the controller does for every message.
  const parsed = (parsedRequest(message) as CallToolRequest | undefined) ?? mcpSdk().CallToolRequestSchema.safeParse(message).data;
  if (!parsed || parsed.params.task !== undefined) return undefined;
  return parsed.params;
}

/**
 * Runs a plain `tools/call` and answers it as the SDK's server answers one:
 * the result checked and shaped by the SDK's CallToolResultSchema, a failure
 * turned into a JSON-RPC error with the thrown code (internal error when it
 * has none), and the reply's fields in the server's order.
 *
 * Why not through the server: for every message, the SDK's protocol layer
 * first tries it as a result response and as an error response, two schema
 * failures that build their error reports, then parses a call's params twice
 * more before the handler runs, where the call already is a well-formed
 * request (hotMessage) with valid params (invalidParamsReply and the check
 * above). Those steps cost more than routing, validating and answering the
 * call itself (docs/decisions.md, MCP).
 */
export async function answerToolCall(servers: McpServerFactory, id: JSONRPCRequest['id'], params: CallToolRequest['params']): Promise<JSONRPCMessage> {
  const sdk = mcpSdk();
  try {
    const result = sdk.CallToolResultSchema.safeParse(await servers.call(params.name, params.arguments));
    if (!result.success) throw new sdk.McpError(sdk.ErrorCode.InvalidParams, `Invalid tools/call result: ${result.error.message}`);
    return { result: result.data, jsonrpc: '2.0', id };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: string; data?: unknown };
    return {
      jsonrpc: '2.0',
      id,
      error: { code: Number.isSafeInteger(code) ? (code as number) : sdk.ErrorCode.InternalError, message: message ?? 'Internal error', ...(data !== undefined && { data }) },
    };
  }
}
