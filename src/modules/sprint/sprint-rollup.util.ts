import { ACTIVE_STATUSES, SprintItemStatus } from './sprint.constants';

export interface RollUp {
  status: 'done' | 'indeterminate';
  /** Appended to the parent's notes: why it changed. */
  note: string;
}

/**
 * What the subtasks of a parent that is still active make of it once none of
 * them is active: all done or skipped makes it done; any failed one makes it
 * indeterminate, for a person to decide. Null while a subtask is active, when
 * there is none, when a pushed subtask leaves the outcome open, or when the
 * parent is already indeterminate for a failure.
 */
export function rollUpOf(parentStatus: SprintItemStatus, children: readonly { status: SprintItemStatus }[]): RollUp | null {
  if (children.length === 0 || children.some((c) => ACTIVE_STATUSES.includes(c.status))) return null;
  if (children.some((c) => c.status === 'failed')) {
    return parentStatus === 'indeterminate' ? null : { status: 'indeterminate', note: 'Indeterminate: a subtask failed.' };
  }
  if (children.every((c) => c.status === 'done' || c.status === 'skipped')) return { status: 'done', note: `Done: all ${children.length} subtasks finished.` };
  return null;
}
