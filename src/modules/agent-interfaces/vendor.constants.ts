/**
 * The tools `/mcp/vendor` offers a third-party plugin directory: the reads a
 * plugin needs to show a project's state, and two writes that add without
 * changing anything already there (a note, a question for a person). Nothing
 * that claims, completes, deletes, or touches profiles, tokens or files.
 * Unlike toolsets, this list is enforced: a call outside it is refused.
 */
export const VENDOR_TOOLS = [
  'list_projects',
  'get_project',
  'get_context_block',
  'get_goal',
  'list_sprint_items',
  'get_sprint_item',
  'list_sessions',
  'list_hitl_requests',
  'get_hitl_request',
  'get_notes',
  'get_decision_log',
  'search_project',
  'add_note',
  'request_hitl',
] as const;

export const VENDOR_INSTRUCTIONS =
  "Baton's curated endpoint for plugin directories: read a project's goal, sprint, sessions, notes and decisions, " +
  'search it, add a note or ask a person a question. Other Baton tools are on /mcp.';
