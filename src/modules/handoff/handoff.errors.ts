import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum HandoffErrorCode {
  NotFound = 'HANDOFF_NOT_FOUND',
  WrongProject = 'HANDOFF_WRONG_PROJECT',
  AlreadyConsumed = 'HANDOFF_ALREADY_CONSUMED',
  Expired = 'HANDOFF_EXPIRED',
  SessionNotInProject = 'SESSION_NOT_IN_PROJECT',
}

const STATUS: StatusTable<HandoffErrorCode> = {
  [HandoffErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [HandoffErrorCode.WrongProject]: HttpStatus.CONFLICT,
  [HandoffErrorCode.AlreadyConsumed]: HttpStatus.CONFLICT,
  [HandoffErrorCode.Expired]: HttpStatus.CONFLICT,
  [HandoffErrorCode.SessionNotInProject]: HttpStatus.NOT_FOUND,
};

export class HandoffError extends DomainErrorOf(STATUS) {
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
}
