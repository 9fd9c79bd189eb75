/** GET .../stats: days of `tasks.per_day` by default, and at most. */
export const STATS_DAYS_DEFAULT = 14;
export const STATS_DAYS_MAX = 90;
/** A session unseen for this long is shown as `stale` by GET .../runtime_diagnostics. */
export const STALE_SESSION_MS = 5 * 60_000;
/** A rewind token's default and longest life (the prefixes of project tokens are in PROJECT_TOKEN_PREFIXES). */
export const REWIND_TOKEN_TTL_DEFAULT_S = 3600;
export const REWIND_TOKEN_TTL_MAX_S = 7 * 24 * 3600;
/** POST .../events: the framework event kinds Baton turns into task-log entries. */
export const FRAMEWORK_EVENT_KINDS = ['tool_use', 'tool_result', 'step', 'error', 'message'] as const;
export type FrameworkEventKind = (typeof FRAMEWORK_EVENT_KINDS)[number];
/** Longest task description an event becomes (longer text is cut with an ellipsis). */
export const EVENT_DESCRIPTION_MAX = 2000;
