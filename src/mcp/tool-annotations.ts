/**
 * MCP tool annotations: what calling a tool does to Baton's state, so a client can run read-only
 * tools without asking and warn before a destructive one. Every tool declares all four; the
 * presets below cover the usual kinds.
 */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  /** The call may remove or overwrite what is there (deletes, purges, wholesale replacements). */
  destructiveHint: boolean;
  /** Repeating the same call leaves the same state as calling once. */
  idempotentHint: boolean;
  /** Baton's tools touch Baton's own state; only the few that reach out (webhooks, OTLP export) say otherwise. */
  openWorldHint: boolean;
}

/** Reads and changes nothing (get_*, list_*, checks and previews). */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Adds something new at each call (claims, log entries, messages, new items). */
export const ADDITIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false };

/** Sets fields to given values: the same call again changes nothing more (set_*, update_*, releases, transitions). */
export const IDEMPOTENT_UPDATE: ToolAnnotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Removes or replaces what is there for good; the same call again finds nothing more to remove. */
export const DESTRUCTIVE: ToolAnnotations = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false };
