/**
 * The toolsets an MCP connection may list: the one place that says which tool
 * belongs where. A listing costs the assistant context on every turn, so a
 * connection lists `core` unless it asks for more; a tool outside its listing
 * can still be called (the listing is a saving, not a permission).
 *
 * Domain toolsets split the registered tools by what they work on: every tool
 * is in exactly one of them (checked at boot by McpToolsets), so a new tool
 * cannot be left out of every listing. The tiers `core`, `standard` and `all`
 * cut across the domains.
 */
export interface ToolsetDefinition {
  name: string;
  description: string;
  /** The tools it lists; `all` is the one toolset given none: it lists every registered tool. */
  tools?: readonly string[];
}

export const DOMAIN_TOOLSETS: readonly ToolsetDefinition[] = [
  {
    name: 'projects',
    description: 'projects and their files: list, create, rename, organise, read and write project files',
    tools: [
      'list_projects',
      'create_project',
      'get_project',
      'rename_project',
      'delete_project',
      'set_project_organization',
      'set_project_icon',
      'set_project_parent',
      'list_project_files',
      'read_project_file',
      'write_project_file',
      'update_md_section',
    ],
  },
  {
    name: 'sessions',
    description: 'working sessions: start, heartbeat, close, the context block and session notes',
    tools: [
      'start_session',
      'start_worker_session',
      'register_session',
      'heartbeat',
      'close_session',
      'update_session',
      'list_sessions',
      'get_context_block',
      'get_project_context',
      'add_session_note',
      'get_session_notes',
    ],
  },
  { name: 'file_locks', description: 'file locks held by sessions: claim, release, list', tools: ['claim_file', 'release_file', 'list_file_locks'] },
  {
    name: 'sprint',
    description: 'sprint items: add, list, claim, complete, fail, skip, push, subtasks',
    tools: [
      'add_sprint_item',
      'list_sprint_items',
      'get_sprint_item',
      'update_sprint_item',
      'delete_sprint_item',
      'claim_sprint_item',
      'release_sprint_item',
      'complete_sprint_item',
      'verify_sprint_item',
      'fail_sprint_item',
      'skip_sprint_item',
      'push_sprint_item',
      'add_subtask',
    ],
  },
  {
    name: 'sprint_planning',
    description: 'planning the sprint: waves, tracks, batches, prospecting, coverage, reconciliation',
    tools: [
      'assign_sprint_waves',
      'get_wave_summary',
      'sprint_batch',
      'get_sprint_pending_count',
      'get_test_coverage_expected',
      'find_sprint_items_by_resource',
      'prospect_sprint_item',
      'list_sprint_tracks',
      'set_sprint_track',
      'reconcile_sprint',
    ],
  },
  {
    name: 'tasks',
    description: 'the task log and the task queue: log, search, claim, release, enqueue',
    tools: ['log_task', 'get_tasks', 'get_task', 'update_task', 'delete_task', 'get_claimable_tasks', 'claim_task', 'release_task', 'search_tasks', 'enqueue_task'],
  },
  {
    name: 'notes',
    description: 'notes, insights and the devlog',
    tools: ['add_note', 'get_notes', 'update_note', 'delete_note', 'add_insight', 'get_insights', 'add_devlog_entry', 'get_devlog'],
  },
  {
    name: 'decisions',
    description: 'the decision log and pinned decisions',
    tools: [
      'log_decision',
      'get_decision_log',
      'pin_decision',
      'get_pinned_decisions',
      'update_pinned_decision',
      'delete_pinned_decision',
      'archive_oldest_decisions',
      'replace_pinned_decisions',
      'consolidate_decisions',
    ],
  },
  {
    name: 'goals',
    description: 'the goal, north star, sprint goal and goal mode',
    tools: ['get_goal', 'set_goal', 'set_north_star', 'set_sprint', 'get_goal_history', 'get_goal_mode', 'set_goal_mode'],
  },
  {
    name: 'hitl',
    description: 'questions for a human: ask, read, list, answer, dismiss',
    tools: ['request_hitl', 'get_hitl_request', 'list_hitl_requests', 'answer_hitl', 'dismiss_hitl'],
  },
  { name: 'messages', description: 'messages between sessions: send, receive, acknowledge', tools: ['send_message', 'receive_messages', 'ack_messages'] },
  {
    name: 'handoff',
    description: 'handoffs between sessions, corrections, the planner handoff and queued sessions',
    tools: ['generate_handoff', 'accept_handoff', 'record_handoff_correction', 'get_latest_handoff_correction', 'get_planner_handoff', 'queue_session', 'get_queued_session'],
  },
  {
    name: 'profiles',
    description: 'profile layers: save, clone, activate, retire, revisions, the effective profile',
    tools: [
      'list_profile_layers',
      'get_profile_layer',
      'save_profile_layer',
      'clone_profile_layer',
      'activate_profile_layer',
      'deprecate_profile_layer',
      'retire_profile_layer',
      'reset_profile_layer',
      'get_profile_layer_revisions',
      'get_effective_profile',
    ],
  },
  {
    name: 'workspace',
    description: 'the workspace layer shared by projects: notes, decisions, sprint items, settings',
    tools: [
      'add_workspace_note',
      'get_workspace_notes',
      'update_workspace_note',
      'delete_workspace_note',
      'move_workspace_note',
      'set_workspace_decision',
      'get_workspace_decisions',
      'delete_workspace_decision',
      'add_workspace_sprint_item',
      'get_workspace_sprint_items',
      'update_workspace_sprint_item',
      'complete_workspace_sprint_item',
      'get_workspace_settings',
      'update_workspace_settings',
    ],
  },
  {
    name: 'ai_log',
    description: 'the AI-log: timelines, export, purge, OTLP export settings',
    tools: ['get_timeline', 'get_session_timeline', 'export_ai_log', 'purge_ai_log', 'export_ai_log_otel', 'set_ai_log_export_config', 'get_ai_log_export_status'],
  },
  {
    name: 'notifications',
    description: 'notification settings and a test notification',
    tools: ['get_notification_settings', 'update_notification_settings', 'send_test_notification'],
  },
  {
    name: 'settings',
    description: 'project settings and agent instructions',
    tools: ['get_project_settings', 'update_project_settings', 'get_agent_instructions', 'set_agent_instructions', 'get_default_agent_instructions'],
  },
  {
    name: 'codehost',
    description: "the project's code-host repository: status, branches, files, workflow runs; file commits, workflow runs and issues when permitted",
    tools: ['get_codehost_status', 'list_repo_branches', 'read_repo_file', 'list_workflow_runs', 'patch_file', 'trigger_workflow', 'create_issue'],
  },
  {
    name: 'knowledge',
    description: "what a project knows: search over its records, its documents' structure and review, the codebase map",
    tools: ['search_project', 'get_document_structure', 'review_documents', 'map_codebase'],
  },
  { name: 'diagnostics', description: 'hook and tunnel diagnostics', tools: ['get_hook_diagnostics', 'get_tunnel_diagnostics'] },
  {
    name: 'time',
    description: 'a project over time: stats, runtime diagnostics, rewind, framework events',
    tools: ['get_project_stats', 'get_runtime_diagnostics', 'rewind_project', 'record_framework_event'],
  },
  { name: 'toolsets', description: 'this list of toolsets and widening the listing', tools: ['list_toolsets', 'enable_toolset'] },
  {
    name: 'executor',
    description: 'executors: register a machine and its heartbeat, take queued tasks, record runs, experiments and worktrees',
    tools: [
      'register_machine',
      'machine_heartbeat',
      'claim_queued_task',
      'record_run',
      'finish_run',
      'record_experiment',
      'record_experiment_event',
      'set_experiment_status',
      'register_worktree',
      'merge_worktree',
    ],
  },
  {
    name: 'proposals',
    description: 'workspace proposals: cross-project ideas of the people, reviewed and promoted into a sprint item',
    tools: ['add_workspace_proposal', 'get_workspace_proposals', 'advance_proposal_status', 'promote_proposal'],
  },
  {
    name: 'agents',
    description: 'working with other agents: tasks handed over by A2A, several reads in one call (batch_read)',
    tools: ['list_a2a_tasks', 'update_a2a_task', 'batch_read'],
  },
];

const CORE_TOOLS = [
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
] as const;

/** What a working session reaches for beyond core: reading and planning its sprint, its tasks, the project's memory. */
const STANDARD_EXTRA_TOOLS = [
  'get_project',
  'create_project',
  'get_project_context',
  'update_session',
  'list_sessions',
  'list_file_locks',
  'list_sprint_items',
  'get_sprint_item',
  'add_sprint_item',
  'update_sprint_item',
  'skip_sprint_item',
  'add_subtask',
  'get_tasks',
  'get_task',
  'update_task',
  'search_tasks',
  'get_notes',
  'get_decision_log',
  'get_pinned_decisions',
  'get_goal',
  'list_hitl_requests',
  'answer_hitl',
  'ack_messages',
] as const;

export const TIER_TOOLSETS: readonly ToolsetDefinition[] = [
  { name: 'core', description: 'the default: what every working session needs (start, heartbeat, claim, complete, log, ask, hand off)', tools: CORE_TOOLS },
  {
    name: 'standard',
    description: 'core plus reading and planning the sprint, tasks, notes, decisions, goals, sessions and locks',
    tools: [...CORE_TOOLS, ...STANDARD_EXTRA_TOOLS],
  },
  { name: 'all', description: 'every tool Baton has' },
];

export const TOOLSETS: readonly ToolsetDefinition[] = [...TIER_TOOLSETS, ...DOMAIN_TOOLSETS];

export const TOOLSET_NAMES: readonly string[] = TOOLSETS.map((t) => t.name);

export const DEFAULT_TOOLSETS = ['core'];

/**
 * The toolset names of a comma-separated selection (`core,sprint`), or the
 * reason it is refused: an unknown name is named with the valid ones, so a
 * typo is not silently a smaller listing.
 */
export function parseToolsets(raw: string): { toolsets: string[] } | { problem: string } {
  const names = [...new Set(raw.split(',').map((name) => name.trim().toLowerCase()))].filter(Boolean);
  const unknown = names.filter((name) => !TOOLSET_NAMES.includes(name));
  if (unknown.length > 0) {
    return { problem: `unknown toolset ${unknown.map((name) => `"${name}"`).join(', ')}; valid toolsets: ${TOOLSET_NAMES.join(', ')}` };
  }
  if (names.length === 0) return { problem: `names no toolset; valid toolsets: ${TOOLSET_NAMES.join(', ')}` };
  return { toolsets: names };
}
