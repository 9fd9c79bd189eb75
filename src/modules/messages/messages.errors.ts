import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum MessageErrorCode {
  SessionNotFound = 'SESSION_NOT_FOUND',
  RecipientClosed = 'RECIPIENT_CLOSED',
  IdempotencyConflict = 'IDEMPOTENCY_CONFLICT',
}

const STATUS: StatusTable<MessageErrorCode> = {
  [MessageErrorCode.SessionNotFound]: HttpStatus.NOT_FOUND,
  [MessageErrorCode.RecipientClosed]: HttpStatus.CONFLICT,
  [MessageErrorCode.IdempotencyConflict]: HttpStatus.CONFLICT,
};

export class MessageError extends DomainErrorOf(STATUS) {
  static sessionNotFound(sessionId: string, projectId: string) {
    return new MessageError(MessageErrorCode.SessionNotFound, `session not found in project ${projectId}: ${sessionId}`);
  }

  static recipientClosed(sessionId: string) {
    return new MessageError(MessageErrorCode.RecipientClosed, `session ${sessionId} is closed and will never read this message; address its agent name or the project instead`);
  }

  static idempotencyConflict(key: string, existingId: string) {
    return new MessageError(
      MessageErrorCode.IdempotencyConflict,
      `idempotency_key ${key} was already used for a different message (${existingId}); use a new key for a new message`,
      existingId ? { existing_message_id: existingId } : undefined,
    );
  }
}
