/** `running` until the executor finishes it; `orphaned` when the reaper found its machine or session gone. */
export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'orphaned'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
/** The statuses an executor may finish a run with. */
export const FINISHED_RUN_STATUSES = ['succeeded', 'failed'] as const;
export type FinishedRunStatus = (typeof FINISHED_RUN_STATUSES)[number];

export const EXPERIMENT_STATUSES = ['running', 'concluded', 'abandoned'] as const;
export type ExperimentStatus = (typeof EXPERIMENT_STATUSES)[number];

export const WORKTREE_STATUSES = ['active', 'pending_cleanup'] as const;
export type WorktreeStatus = (typeof WORKTREE_STATUSES)[number];
/** A worktree merge: waiting for a person (require_merge_approval), or decided. */
export type WorktreeMergeStatus = 'awaiting_approval' | 'approved' | 'declined';

export const NAME_MAX = 200;
export const TEXT_MAX = 20_000;
export const PATH_MAX = 1000;
