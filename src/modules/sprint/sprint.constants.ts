/** Every status a sprint item can have (spec §2, §3). */
export const SPRINT_STATUSES = ['todo', 'pending', 'in_progress', 'done', 'failed', 'skipped', 'pushed', 'indeterminate', 'provisional_complete'] as const;
export type SprintItemStatus = (typeof SPRINT_STATUSES)[number];

/** Statuses of work not yet finished: they count as pending, block near-duplicates' neighbours and keep a wave open. */
export const ACTIVE_STATUSES: readonly SprintItemStatus[] = ['todo', 'pending', 'in_progress', 'indeterminate', 'provisional_complete'];
/** Reaching one of these stamps completed_at. */
export const TERMINAL_STATUSES: readonly SprintItemStatus[] = ['done', 'failed', 'skipped', 'pushed'];
/** A claim by id is accepted from these (an in-progress item only when its claimer's session is gone). */
export const CLAIMABLE_STATUSES: readonly SprintItemStatus[] = ['todo', 'pending', 'indeterminate', 'provisional_complete'];
/** The next-claimable pick only hands out fresh work. */
export const NEXT_CLAIMABLE_STATUSES: readonly SprintItemStatus[] = ['todo', 'pending'];
/** The only statuses PATCH may set: resets to a non-terminal state. */
export const PATCHABLE_STATUSES: readonly SprintItemStatus[] = ['pending', 'todo', 'indeterminate'];
/** A new title near-duplicating an item in one of these is refused unless forced. */
export const DUPLICATE_BLOCKING_STATUSES: readonly SprintItemStatus[] = ['todo', 'pending', 'in_progress'];

export const PRIORITIES = ['urgent', 'high', 'normal', 'low'] as const;
export type SprintPriority = (typeof PRIORITIES)[number];
/** Sort key of a priority: lower is served first. */
export const PRIORITY_RANK: Record<SprintPriority, number> = { urgent: 0, high: 1, normal: 2, low: 3 };

export const FAILURE_MODES = ['continue', 'stop'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export const MILESTONE_TYPES = ['task', 'milestone', 'human'] as const;
export type MilestoneType = (typeof MILESTONE_TYPES)[number];

export const BLOCKER_KINDS = ['manual', 'superseded'] as const;
export type BlockerKind = (typeof BLOCKER_KINDS)[number];

export const OWNERS = ['human', 'ai'] as const;
export type SprintOwner = (typeof OWNERS)[number];

/** Who is claiming: an AI worker or a person. AI claims pass the milestone/human gate only for `task` items. */
export const CLAIMANTS = ['ai', 'human'] as const;
export type Claimant = (typeof CLAIMANTS)[number];

export const TRACK_STATES = ['active', 'deferred', 'skipped'] as const;
export type TrackState = (typeof TRACK_STATES)[number];

/** A worker that leaves an item unfinished this many times fails it instead of re-queuing it again. */
export const STALL_LIMIT = 3;

/** Near-duplicate threshold: shared words over the words of the shorter title. */
export const DUPLICATE_OVERLAP = 0.6;

/** Largest sprint-batch, in items; one batch is one transaction. */
export const BATCH_MAX_ITEMS = 1000;

export const TITLE_MAX = 500;
export const NOTES_MAX = 20_000;
export const LABEL_MAX = 100;
export const RESOURCES_MAX = 50;
export const RESOURCE_MAX = 1024;
export const LIST_LIMIT_DEFAULT = 1000;
export const LIST_LIMIT_MAX = 10_000;
