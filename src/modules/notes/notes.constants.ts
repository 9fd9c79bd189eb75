export const INSIGHT_HORIZONS = ['permanent', 'year', 'quarter'] as const;
export type InsightHorizon = (typeof INSIGHT_HORIZONS)[number];

/** active: pinned, in the context block; superseded: replaced by a newer decision; archived: unpinned, kept as history. */
export const PINNED_DECISION_STATUSES = ['active', 'superseded', 'archived'] as const;
export type PinnedDecisionStatus = (typeof PINNED_DECISION_STATUSES)[number];

export const NOTE_TITLE_MAX = 300;
export const NOTE_BODY_MAX = 50_000;
export const DECISION_BODY_MAX = 20_000;
export const DEVLOG_ENTRY_MAX = 20_000;
/** Pinned decisions in the context block: the newest active ones. */
export const CONTEXT_DECISIONS = 5;
