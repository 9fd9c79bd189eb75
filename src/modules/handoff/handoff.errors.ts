import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum HandoffErrorCode {
  NotFound = 'HANDOFF_NOT_FOUND',
  WrongProject = 'HANDOFF_WRONG_PROJECT',
  AlreadyConsumed = 'HANDOFF_ALREADY_CONSUMED',
  Expired = 'HANDOFF_EXPIRED',
  SessionNotInProject = 'SESSION_NOT_IN_PROJECT',
}

export class HandoffError extends DomainError<HandoffErrorCode> {
  static notFound(ref: string) {
    return new HandoffError(HandoffErrorCode.NotFound, `handoff not found: ${ref}`);
  }

  static wrongProject(ref: string, projectId: string) {
    return new HandoffError(HandoffErrorCode.WrongProject, `handoff ${ref} belongs to another project than ${projectId}`);
  }

  static alreadyConsumed(ref: string, sessionId: string | null) {
    return new HandoffError(
      HandoffErrorCode.AlreadyConsumed,
      `handoff ${ref} was already used to start session ${sessionId ?? 'unknown'}: a handoff token starts one session; generate a new handoff`,
    );
  }

  static expired(ref: string, at: Date) {
    return new HandoffError(HandoffErrorCode.Expired, `handoff ${ref} expired at ${at.toISOString()}: generate a new handoff`);
  }

  static sessionNotInProject(sessionId: string, projectId: string) {
    return new HandoffError(HandoffErrorCode.SessionNotInProject, `session ${sessionId} is not a session of project ${projectId}`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case HandoffErrorCode.NotFound:
        return 404;
      case HandoffErrorCode.WrongProject:
        return 409;
      case HandoffErrorCode.AlreadyConsumed:
        return 409;
      case HandoffErrorCode.Expired:
        return 409;
      case HandoffErrorCode.SessionNotInProject:
        return 404;
      default:
        return assertUnreachable(this.code);
    }
  }
}
