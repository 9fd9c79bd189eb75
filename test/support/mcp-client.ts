import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ClientCapabilities, McpError } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP client from the official SDK, connected over Streamable HTTP (or legacy SSE). `toolsets`
 * chooses what tools/list lists (`?toolsets=`); unset, the server's default (core). `path`: another
 * Streamable HTTP endpoint, such as `/mcp/vendor`. `projectId` (`?project_id=`) orders the listing
 * by that project's tool_priority_map.
 */
export async function connectMcp(baseUrl: string, token?: string, transport: 'http' | 'sse' = 'http', toolsets?: string, path = '/mcp', projectId?: string): Promise<Client> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: 'baton-tests', version: '1.0.0' });
  const params = new URLSearchParams({ ...(toolsets ? { toolsets } : {}), ...(projectId ? { project_id: projectId } : {}) }).toString();
  const query = params ? `?${params}` : '';
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${path}${query}`, baseUrl), { requestInit: { headers } }));
  } else {
    await client.connect(
      new SSEClientTransport(new URL(`/mcp/sse${query}`, baseUrl), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
  }
  return client;
}

/**
 * An SDK client over Streamable HTTP declaring `capabilities` (elicitation, say), with its transport:
 * `transport.sessionId` is the MCP session the server opened. Handlers the client answers with
 * (`setRequestHandler`) are set before connecting by `prepare`.
 */
export async function connectMcpSession(baseUrl: string, token?: string, capabilities: ClientCapabilities = {}, prepare?: (client: Client) => void) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: 'baton-tests', version: '1.0.0' }, { capabilities });
  prepare?.(client);
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

/** Calls a tool and parses its JSON text result. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
  };
  const text = result.content[0]?.text ?? '';
  let value: any = text;
  if (!result.isError) value = JSON.parse(text);
  return { isError: Boolean(result.isError), value, text, structured: result.structuredContent };
}

/** One tool call on a connection of its own, opened and closed around it (a session's single call). */
export async function callToolOnce(baseUrl: string, token: string | undefined, name: string, args: Record<string, unknown> = {}) {
  const client = await connectMcp(baseUrl, token);
  try {
    return await callTool(client, name, args);
  } finally {
    await client.close();
  }
}

/** The JSON-RPC error a request must end in (an McpError from the SDK client); fails the test when it succeeds. */
export async function mcpError(work: Promise<unknown>): Promise<McpError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected a JSON-RPC error, got ${error === undefined ? 'an answer' : String(error)}`, { cause: error });
  return error;
}
