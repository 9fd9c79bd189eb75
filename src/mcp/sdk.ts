import type { Request, Response } from 'express';
import type * as ServerIndex from '@modelcontextprotocol/sdk/server/index.js';
import type * as ServerSse from '@modelcontextprotocol/sdk/server/sse.js';
import type * as ServerStreamableHttp from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';

export type McpSdk = typeof ServerIndex & typeof ServerSse & typeof ServerStreamableHttp & typeof Types;

let sdk: McpSdk | undefined;

/**
 * The parts of the MCP SDK the server uses, loaded with the first MCP request
 * rather than at boot: with its schema library it is the largest thing Baton
 * loads, and an instance that serves no MCP traffic does not need it.
 */
export function mcpSdk(): McpSdk {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded synchronously on first use, not at boot (see above) */
  sdk ??= {
    ...(require('@modelcontextprotocol/sdk/types.js') as typeof Types),
    ...(require('@modelcontextprotocol/sdk/server/index.js') as typeof ServerIndex),
    ...(require('@modelcontextprotocol/sdk/server/sse.js') as typeof ServerSse),
    ...(require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof ServerStreamableHttp),
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  return sdk;
}

/**
 * Answers one request with `server` behind the SDK's own Streamable HTTP transport, stateless and
 * in JSON; both are closed when the answer is done.
 */
export async function serveStateless(server: InstanceType<McpSdk['Server']>, req: Request, res: Response): Promise<void> {
  const transport = new (mcpSdk().StreamableHTTPServerTransport)({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
