/**
 * The tools of the default (`core`) MCP listing, as the suites expect them: an assistant's loop
 * (sessions, context, file locks, sprint claims, task log, questions, messages, handoffs, notes and
 * decisions) and the two tools that widen the listing. Written out here rather than imported from
 * src/mcp/toolsets.ts, so that a change to the product's list fails a suite until this one agrees.
 */
export const CORE_TOOLS: readonly string[] = [
  'start_session',
  'heartbeat',
  'close_session',
  'get_context_block',
  'claim_file',
  'release_file',
  'claim_sprint_item',
  'release_sprint_item',
  'complete_sprint_item',
  'fail_sprint_item',
  'log_task',
  'request_hitl',
  'get_hitl_request',
  'send_message',
  'receive_messages',
  'generate_handoff',
  'accept_handoff',
  'add_note',
  'log_decision',
  'list_projects',
  'list_toolsets',
  'enable_toolset',
];
