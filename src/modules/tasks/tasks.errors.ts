import { assertUnreachable, DomainError } from '../../common/errors/domain-error';
import { TaskStatus } from './tasks.constants';

export enum TaskErrorCode {
  NotFound = 'TASK_NOT_FOUND',
  TransitionRefused = 'TASK_TRANSITION_REFUSED',
  NotClaimed = 'TASK_NOT_CLAIMED',
  ClaimedByOther = 'TASK_CLAIMED_BY_OTHER',
  SessionNotInProject = 'SESSION_NOT_IN_PROJECT',
}

export class TaskError extends DomainError<TaskErrorCode> {
  private fields?: Record<string, unknown>;

  static notFound(id: string) {
    return new TaskError(TaskErrorCode.NotFound, `task not found: ${id}`);
  }

  static transitionRefused(from: TaskStatus, to: TaskStatus, allowed: readonly TaskStatus[]) {
    const hint =
      to === 'in_progress'
        ? 'claim it with POST /projects/{project_id}/tasks/claim'
        : from === 'in_progress' && to === 'pending'
          ? 'the claiming session releases it with POST /projects/{project_id}/tasks/release'
          : `allowed from ${from}: ${allowed.join(', ') || 'none'}`;
    const error = new TaskError(TaskErrorCode.TransitionRefused, `a task cannot move from ${from} to ${to}: ${hint}`);
    error.fields = { status: from, allowed };
    return error;
  }

  static notClaimed(id: string, status: TaskStatus) {
    const error = new TaskError(TaskErrorCode.NotClaimed, `task ${id} is not claimed (status ${status})`);
    error.fields = { status };
    return error;
  }

  static claimedByOther(id: string, claimedBy: string | null) {
    const error = new TaskError(TaskErrorCode.ClaimedByOther, `task ${id} is claimed by session ${claimedBy}: only that session can release it`);
    error.fields = { claimed_by: claimedBy };
    return error;
  }

  static sessionNotInProject(sessionId: string, projectId: string) {
    return new TaskError(TaskErrorCode.SessionNotInProject, `session ${sessionId} is not a session of project ${projectId}`);
  }

  override get extra() {
    return this.fields;
  }

  get httpStatus(): number {
    switch (this.code) {
      case TaskErrorCode.NotFound:
        return 404;
      case TaskErrorCode.TransitionRefused:
      case TaskErrorCode.NotClaimed:
      case TaskErrorCode.ClaimedByOther:
        return 409;
      case TaskErrorCode.SessionNotInProject:
        return 400;
      default:
        return assertUnreachable(this.code);
    }
  }
}
