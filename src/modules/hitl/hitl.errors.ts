import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum HitlErrorCode {
  NotFound = 'HITL_NOT_FOUND',
  NotPending = 'HITL_NOT_PENDING',
  AnswerRequired = 'HITL_ANSWER_REQUIRED',
  SessionNotInProject = 'HITL_SESSION_NOT_IN_PROJECT',
}

const STATUS: StatusTable<HitlErrorCode> = {
  [HitlErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [HitlErrorCode.NotPending]: HttpStatus.CONFLICT,
  [HitlErrorCode.AnswerRequired]: HttpStatus.BAD_REQUEST,
  [HitlErrorCode.SessionNotInProject]: HttpStatus.NOT_FOUND,
};

export class HitlError extends DomainErrorOf(STATUS) {
  static notFound(id: string) {
    return new HitlError(HitlErrorCode.NotFound, `hitl request not found: ${id}`);
  }

  static notPending(id: string, status: string) {
    return new HitlError(HitlErrorCode.NotPending, `hitl request ${id} is already ${status}: only a pending request can be answered or dismissed`, { status });
  }

  static answerRequired() {
    return new HitlError(HitlErrorCode.AnswerRequired, 'answer is required when action is answer');
  }

  static sessionNotInProject(sessionId: string, projectId: string) {
    return new HitlError(HitlErrorCode.SessionNotInProject, `session not found in project ${projectId}: ${sessionId}`);
  }
}
