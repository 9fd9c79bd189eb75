import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool whose call can wait for something to happen, and so may run as an MCP task. */
export interface WaitingTool {
  /** The argument holding the wait in seconds. */
  waitArgument: string;
  /** Whether the (successful) result is the one the wait was for. */
  arrived(result: Record<string, unknown>): boolean;
}

/**
 * The tools that accept task-augmented calls (`execution.taskSupport: optional` in the listing):
 * those whose call waits, woken by push or polling, for an answer or a message. Both may be run
 * again without changing anything (a read; receive_messages acknowledges only through ack_through),
 * which is what lets a task be checked by whichever instance the client asks.
 */
export const WAITING_TOOLS: Readonly<Record<string, WaitingTool>> = {
  get_hitl_request: { waitArgument: 'wait', arrived: (r) => r.status !== 'pending' },
  receive_messages: { waitArgument: 'wait_seconds', arrived: (r) => Array.isArray(r.messages) && r.messages.length > 0 },
};

export function waitingTool(name: string): WaitingTool | undefined {
  return Object.hasOwn(WAITING_TOOLS, name) ? WAITING_TOOLS[name] : undefined;
}

/** Whether a result is an answer (not an error) the wait was for. */
export function arrivedIn(tool: WaitingTool, result: CallToolResult): boolean {
  return !result.isError && result.structuredContent !== undefined && tool.arrived(result.structuredContent);
}
