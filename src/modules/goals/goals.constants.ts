export const GOAL_MODES = ['manual', 'auto'] as const;
/** manual: only people and sessions write the goal; auto: Baton's background summaries may keep its AUTO BLOCKS current. */
export type GoalMode = (typeof GOAL_MODES)[number];

export const GOAL_CONTENT_MAX = 100_000;
export const NORTH_STAR_MAX = 10_000;
export const SPRINT_LABEL_MAX = 200;
