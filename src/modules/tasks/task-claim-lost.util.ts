import type { NewNotice } from '../sessions/session-notices.service';
import { Task } from './task.entity';

/**
 * The notice owed to the session that held `task` in progress and lost it: put back in the queue
 * (`takenById` null) or taken by that session. Null when no session held it (a machine run with
 * no session), or when the taker is the holder itself.
 */
export function lostTaskClaim(task: Task, at: Date, holderId: string | null, takenById: string | null = null): NewNotice | null {
  if (task.status !== 'in_progress' || !holderId || holderId === takenById) return null;
  return { projectId: task.project_id, sessionId: holderId, kind: 'claim_lost', taskId: task.id, itemRef: task.description, takenById, at };
}
