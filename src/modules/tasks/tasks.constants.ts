/**
 * Task statuses. `pending` tasks wait for someone to claim them; `backlog`,
 * `future` and `backburner` are parked (not claimable) until moved to pending;
 * `in_progress` is entered by a claim (or by logging a task as in progress);
 * `done` and `failed` finish a task.
 */
export const TASK_STATUSES = ['pending', 'in_progress', 'done', 'failed', 'backlog', 'future', 'backburner'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Where a task row came from: a session's task log, or `POST /tasks/enqueue` for an executor. */
export type TaskSource = 'log' | 'enqueue';

const FINISH: TaskStatus[] = ['done', 'failed'];

/**
 * The moves `PATCH /tasks/{id}` may make. Entering `in_progress` is a claim
 * (POST .../tasks/claim) and leaving it for `pending` is a release by the
 * claimer (POST .../tasks/release): both need the session, which PATCH does not
 * carry. Finished tasks can be reopened (back to pending).
 */
export const TASK_TRANSITIONS: Record<TaskStatus, readonly TaskStatus[]> = {
  pending: ['backlog', 'future', 'backburner', ...FINISH],
  backlog: ['pending', 'future', 'backburner', ...FINISH],
  future: ['pending', 'backlog', 'backburner', ...FINISH],
  backburner: ['pending', 'backlog', 'future', ...FINISH],
  in_progress: FINISH,
  done: ['pending'],
  failed: ['pending'],
};

export const TASK_DESCRIPTION_MAX = 10_000;
/** Tasks shown in the context block and with GET goal. */
export const RECENT_TASKS = 10;
