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
