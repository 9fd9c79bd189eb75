import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { Plan } from '../../common/plans';
import { TaskStatus } from './tasks.constants';

export enum TaskErrorCode {
  NotFound = 'TASK_NOT_FOUND',
  TransitionRefused = 'TASK_TRANSITION_REFUSED',
  NotClaimed = 'TASK_NOT_CLAIMED',
  ClaimedByOther = 'TASK_CLAIMED_BY_OTHER',
  SessionNotInProject = 'SESSION_NOT_IN_PROJECT',
  PlanRequired = 'PLAN_REQUIRED',
}

const STATUS: StatusTable<TaskErrorCode> = {
  [TaskErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [TaskErrorCode.TransitionRefused]: HttpStatus.CONFLICT,
  [TaskErrorCode.NotClaimed]: HttpStatus.CONFLICT,
  [TaskErrorCode.ClaimedByOther]: HttpStatus.CONFLICT,
  [TaskErrorCode.SessionNotInProject]: HttpStatus.BAD_REQUEST,
  [TaskErrorCode.PlanRequired]: HttpStatus.PAYMENT_REQUIRED,
};

export class TaskError extends DomainErrorOf(STATUS) {
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
    return new TaskError(TaskErrorCode.TransitionRefused, `a task cannot move from ${from} to ${to}: ${hint}`, { status: from, allowed });
  }

  static notClaimed(id: string, status: TaskStatus) {
    return new TaskError(TaskErrorCode.NotClaimed, `task ${id} is not claimed (status ${status})`, { status });
  }

  static claimedByOther(id: string, claimedBy: string | null) {
    return new TaskError(TaskErrorCode.ClaimedByOther, `task ${id} is claimed by session ${claimedBy}: only that session can release it`, { claimed_by: claimedBy });
  }

  static sessionNotInProject(sessionId: string, projectId: string) {
    return new TaskError(TaskErrorCode.SessionNotInProject, `session ${sessionId} is not a session of project ${projectId}`);
  }

  static planRequired(plan: Plan) {
    return new TaskError(TaskErrorCode.PlanRequired, `queued assistant tasks (POST /tasks/enqueue) need the paid plan: this workspace is on the ${plan} plan`, {
      plan,
      required_plan: 'paid',
    });
  }
}
