/** Workspace sprint item statuses; `done` is reached only through complete, which stamps completed_at. */
export const WORKSPACE_ITEM_STATUSES = ['todo', 'pending', 'in_progress', 'done'] as const;
export type WorkspaceItemStatus = (typeof WORKSPACE_ITEM_STATUSES)[number];
/** What PATCH may set: an open status (reopening a done item clears completed_at). */
export const WORKSPACE_ITEM_OPEN_STATUSES = ['todo', 'pending', 'in_progress'] as const;
export type WorkspaceItemOpenStatus = (typeof WORKSPACE_ITEM_OPEN_STATUSES)[number];

export type WorkspaceDecisionStatus = 'active' | 'superseded';

export const WORKSPACE_GROUP_MAX = 100;
export const WORKSPACE_ITEM_TITLE_MAX = 300;
export const WORKSPACE_ITEM_NOTES_MAX = 20_000;

export interface WorkspaceSettings {
  /** Display name of the workspace; null when unnamed. */
  name: string | null;
  /** IANA time zone the dashboard shows times in. */
  timezone: string;
  /** Workspace notes at the head of every context block (newest first). */
  context_notes_limit: number;
  /** Active workspace decisions at the head of every context block (newest first). */
  context_decisions_limit: number;
}

export const DEFAULT_WORKSPACE_SETTINGS: WorkspaceSettings = {
  name: null,
  timezone: 'UTC',
  context_notes_limit: 10,
  context_decisions_limit: 10,
};

/** The one row of workspace_settings. */
export const WORKSPACE_SETTINGS_ID = 'singleton';
