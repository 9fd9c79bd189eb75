import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An MCP client from the official SDK, connected over Streamable HTTP (or legacy SSE). */
export async function connectMcp(baseUrl: string, token?: string, transport: 'http' | 'sse' = 'http'): Promise<Client> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const client = new Client({ name: 'baton-tests', version: '1.0.0' });
  if (transport === 'http') {
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', baseUrl), { requestInit: { headers } }));
  } else {
    await client.connect(
      new SSEClientTransport(new URL('/mcp/sse', baseUrl), {
        requestInit: { headers },
        eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string>), ...headers } }) },
      }),
    );
  }
  return client;
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
