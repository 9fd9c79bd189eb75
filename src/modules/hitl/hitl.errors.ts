import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum HitlErrorCode {
  NotFound = 'HITL_NOT_FOUND',
  NotPending = 'HITL_NOT_PENDING',
  AnswerRequired = 'HITL_ANSWER_REQUIRED',
  SessionNotInProject = 'HITL_SESSION_NOT_IN_PROJECT',
}

export class HitlError extends DomainError<HitlErrorCode> {
  private current?: { status: string };

  static notFound(id: string) {
    return new HitlError(HitlErrorCode.NotFound, `hitl request not found: ${id}`);
  }

  static notPending(id: string, status: string) {
    const error = new HitlError(HitlErrorCode.NotPending, `hitl request ${id} is already ${status}: only a pending request can be answered or dismissed`);
    error.current = { status };
    return error;
  }

  static answerRequired() {
    return new HitlError(HitlErrorCode.AnswerRequired, 'answer is required when action is answer');
  }

  static sessionNotInProject(sessionId: string, projectId: string) {
    return new HitlError(HitlErrorCode.SessionNotInProject, `session not found in project ${projectId}: ${sessionId}`);
  }

  override get extra() {
    return this.current;
  }

  get httpStatus(): number {
    switch (this.code) {
      case HitlErrorCode.NotFound:
        return 404;
      case HitlErrorCode.NotPending:
        return 409;
      case HitlErrorCode.AnswerRequired:
        return 400;
      case HitlErrorCode.SessionNotInProject:
        return 404;
      default:
        return assertUnreachable(this.code);
    }
  }
}
