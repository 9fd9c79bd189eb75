import { AsyncLocalStorage } from 'node:async_hooks';
import type { ClientCapabilities, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';

/** The MCP session a `POST /mcp` message belongs to (it carried `Mcp-Session-Id`), as read for that message. */
export interface McpSessionState {
  id: string;
  tenantId: string;
  clientName: string;
  capabilities: ClientCapabilities;
  logLevel: LoggingLevel;
}

const sessions = new AsyncLocalStorage<McpSessionState>();

/** Runs `work` (the handling of one message) as part of `session`. */
export function withMcpSession<T>(session: McpSessionState, work: () => T): T {
  return sessions.run(session, work);
}

/** The session of the MCP message being handled; undefined for a stateless request or outside MCP. */
export function currentMcpSession(): McpSessionState | undefined {
  return sessions.getStore();
}

/** The levels of `logging/setLevel`, least severe first (RFC 5424 as MCP names them). */
export const LOG_LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** Whether a message of `level` passes a session whose level is `threshold`. */
export function logLevelPasses(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
