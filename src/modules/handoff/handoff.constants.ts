export const HANDOFF_MODES = ['full', 'delta', 'planner', 'starter', 'goal'] as const;
export type HandoffMode = (typeof HANDOFF_MODES)[number];

/**
 * Largest handoff of each mode, front matter included, in bytes of UTF-8.
 * A goal handoff is a short brief for one piece of work; a full one carries
 * everything Baton knows about the project's current state.
 */
export const HANDOFF_BUDGETS: Record<HandoffMode, number> = {
  goal: 12_000,
  starter: 24_000,
  delta: 48_000,
  planner: 100_000,
  full: 300_000,
};

/** Longest line of each mode: a long note cannot take a short handoff's whole budget. */
export const HANDOFF_LINE_CHARS: Record<HandoffMode, number> = {
  goal: 400,
  starter: 600,
  delta: 1_000,
  planner: 1_000,
  full: 4_000,
};

/** `ho_` and 16 base32 characters (80 random bits): short enough to paste, too many to guess. */
export const HANDOFF_TOKEN_PATTERN = /^ho_[a-z2-7]{16}$/;

export const HANDOFF_SUMMARY_MAX = 20_000;
/** A pasted handoff (accept_handoff) is at most the largest budget, with room for line-ending changes. */
export const HANDOFF_CONTENT_MAX = 320_000;
export const CORRECTION_SUMMARY_MAX = 500;
export const CORRECTION_CONTENT_MAX = 50_000;
export const QUEUED_GOAL_MAX = 4_000;
/** Changed files read from the repository and passed to handoff hooks. */
export const CHANGED_FILES_MAX = 500;
