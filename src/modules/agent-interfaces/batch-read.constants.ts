/**
 * The reads batch_read runs, each by the read-only tool that serves it alone
 * (so each is validated and scoped exactly as that call would be), or, for
 * messages, by the REST listing that moves no reader's cursor.
 */
export const BATCH_READ_TOOLS = {
  projects: 'list_projects',
  project: 'get_project',
  goal: 'get_goal',
  sprint_items: 'list_sprint_items',
  sprint_item: 'get_sprint_item',
  sessions: 'list_sessions',
  locks: 'list_file_locks',
  hitl: 'list_hitl_requests',
  hitl_request: 'get_hitl_request',
  decisions: 'get_decision_log',
  pinned_decisions: 'get_pinned_decisions',
  profile: 'get_effective_profile',
} as const;

export const BATCH_READ_NAMES = [...Object.keys(BATCH_READ_TOOLS), 'messages'] as readonly (keyof typeof BATCH_READ_TOOLS | 'messages')[];
export type BatchReadName = (typeof BATCH_READ_NAMES)[number];

/** Reads per call: enough for a session's start-up picture, small enough that one call stays one short burst of queries. */
export const BATCH_READ_MAX = 20;

/** Arguments that would make a read wait: a batch answers at once. */
export const BATCH_WAIT_ARGS = ['wait', 'wait_seconds'];
