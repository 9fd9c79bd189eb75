/**
 * The MCP server's instructions, sent once when a client connects. The rules of the tools an
 * assistant's loop calls most are said here, once, so that their descriptions, which go into every
 * `tools/list` it reads, stay one line each.
 */
export const SERVER_INSTRUCTIONS = [
  'Baton keeps the live state of a software project: goals, sprint items, tasks, decisions, sessions and file locks. Call start_session first (handoff_token: start from a handoff, single use); its file_warnings name the files other live sessions hold.',
  'Every argument is checked by the server: a refusal is an error result whose text names the field and the rule, and whose code says why.',
  'claim_file locks for 4 h by default (claim again to renew); while another live session holds the file it is refused with the holder named, unless force=true.',
  'claim_sprint_item: exactly one claimer wins; without item_id the next claimable item (priority, then age). Refusals name the gate (DEFERRED, SUPERSEDED, DEPENDENCY_UNMET, TRACK_DEFERRED, UNPROSPECTED, FILE_LOCKED, MILESTONE_NOT_CLAIMABLE, HUMAN_ONLY) or the holder (ALREADY_CLAIMED). An item declaring touches_resources waits until a planner attaches locations (prospect_sprint_item) or prospect_bypass=1. When nothing is claimable, waiting_items lists the first 20 waiting items with every gate holding each. claimant is ai (default) or human.',
  'complete_sprint_item: done, or provisional_complete with provisional=true; an item with required_notes=1 needs notes or a task_id. fail_sprint_item also fails the dependents whose failure_mode is stop. log_task: status pending, in_progress, done (default), failed, backlog, future or backburner.',
  'Messages: send to to_session_id, to_agent or the whole project (broadcast: true) and pass your session_id: receivers see it as from_session_id to reply to, and your own broadcasts do not come back to you; an idempotency_key makes a retried send store one message. receive_messages takes session_id or agent; acknowledge with ack_through = the last seq handled: acknowledged messages never come again, others come back until acknowledged.',
  'Waits (get_hitl_request wait, receive_messages wait_seconds) are capped at the server maximum, 50 s by default; called as a task they wait up to the whole wait (at most 3600 s) without holding a request: tasks/get or tasks/result on any connection. request_hitl returns at once; a project with hitl_auto_answer on answers it, unless require_human.',
  'Handoffs: generate_handoff answers {file_path, content, token}, content starting with front matter; modes goal, starter, delta, planner, full (default delta when an earlier handoff exists, goal otherwise); a queued session goal is included once. accept_handoff takes handoff_id, token or the content as received and answers status ok, or not_found, wrong_project, expired, already_consumed, body_mismatch, stale, board_diverged or tools_drifted.',
  'get_context_block: mode=brief gives the first lines of each section.',
  'Not every tool is listed: list_toolsets shows the others, enable_toolset adds them.',
].join('\n');
