/** The SessionStart answer's additionalContext stays under this many bytes (and so characters). */
export const HOOK_CONTEXT_MAX_BYTES = 10_000;
/** Room kept for the lines before the context block: the session line and the file warnings. */
export const HOOK_PREAMBLE_MAX_BYTES = 2_500;
/** Hook calls kept for diagnostics, per workspace. */
export const HOOK_EVENTS_KEPT = 200;
export const HOOK_EVENTS_SHOWN = 20;
/** Hooks are "reaching" Baton when one called within this time. */
export const HOOK_REACHING_WINDOW_MS = 24 * 3600 * 1000;
/** The fields of an assistant's hook input Baton reads; the assistant may send more, which are ignored. */
export const HOOK_INPUT_FIELDS = ['session_id', 'hook_event_name', 'source', 'cwd', 'reason'] as const;
