import { mcpSdk } from './sdk';

/** A JSON-RPC error response. */
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: unknown;
  error: { code: number; message: string };
}

interface ParamsSchema {
  safeParse(value: unknown): { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } };
}

let schemas: Map<string, ParamsSchema> | undefined;

/** The requests Baton's MCP server answers, each with the SDK's own schema for it. */
function requestSchemas(): Map<string, ParamsSchema> {
  const sdk = mcpSdk();
  return (schemas ??= new Map<string, ParamsSchema>([
    ['initialize', sdk.InitializeRequestSchema],
    ['ping', sdk.PingRequestSchema],
    ['tools/list', sdk.ListToolsRequestSchema],
    ['tools/call', sdk.CallToolRequestSchema],
  ]));
}

/** Requests whose params were found valid, with what their method's schema made of them. */
const parsed = new WeakMap<object, unknown>();

/**
 * What the SDK's schema for its method made of `message`, when `invalidParamsReply` found its
 * params valid: a caller about to parse it with the same schema again need not.
 */
export function parsedRequest(message: object): unknown {
  return parsed.get(message);
}

function isRequest(message: unknown): message is { id: unknown; method: string } {
  return typeof message === 'object' && message !== null && 'id' in message && typeof (message as { method?: unknown }).method === 'string';
}

/** Why the request's params do not fit its method, or undefined. */
function paramsProblem(schemas: Map<string, ParamsSchema>, message: { method: string }): string | undefined {
  const result = schemas.get(message.method)?.safeParse(message);
  if (!result) return undefined;
  if (result.success) {
    parsed.set(message, result.data);
    return undefined;
  }
  const issues = result.error?.issues ?? [];
  const described = issues.map((i) => `${i.path.map(String).join('.') || 'params'}: ${i.message}`).join('; ');
  return `Invalid params for ${message.method}: ${described || 'params do not match the method'}`;
}

/**
 * The JSON-RPC answer to a body whose requests carry params the SDK would
 * refuse, or undefined when every request is well formed. The SDK checks
 * params inside its request handlers and answers any failure there as an
 * internal error (-32603); a client's mistake is invalid params (-32602), so
 * it is answered here, before the SDK sees it. In a (legacy) batch with such
 * a request, no request runs: the others are answered as invalid requests.
 */
export function invalidParamsReply(body: unknown): JsonRpcErrorReply | JsonRpcErrorReply[] | undefined {
  const messages = Array.isArray(body) ? body : [body];
  const schemas = requestSchemas();
  const problems = messages.map((m) => (isRequest(m) ? paramsProblem(schemas, m) : undefined));
  const first = problems.findIndex((p) => p !== undefined);
  if (first === -1) return undefined;
  const replies = messages.flatMap((m, i): JsonRpcErrorReply[] => {
    if (!isRequest(m)) return [];
    const problem = problems[i];
    if (problem) return [{ jsonrpc: '2.0', id: m.id, error: { code: -32602, message: problem } }];
    return [{ jsonrpc: '2.0', id: m.id, error: { code: -32600, message: `Invalid Request: not run, message ${first} of the batch has invalid params` } }];
  });
  return Array.isArray(body) ? replies : replies[0];
}
