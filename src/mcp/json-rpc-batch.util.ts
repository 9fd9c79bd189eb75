import type { Request } from 'express';

/** The first MCP protocol version without JSON-RPC batching. */
export const FIRST_VERSION_WITHOUT_BATCHING = '2025-06-18';

/**
 * Why a JSON-RPC batch must be refused, or undefined when it may run. The SDK
 * runs a batch whatever protocol version the client declared; Baton refuses one
 * from a client that declared (in `Mcp-Protocol-Version`, which the stateless
 * transport has in place of a negotiated session) a version that has no
 * batching. Versions are dates, so they compare as strings.
 */
export function batchRefusal(req: Request): string | undefined {
  if (!Array.isArray(req.body)) return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (typeof version !== 'string' || version < FIRST_VERSION_WITHOUT_BATCHING) return undefined;
  return `Invalid Request: MCP ${version} has no JSON-RPC batching (removed in ${FIRST_VERSION_WITHOUT_BATCHING}); send one message per request`;
}
