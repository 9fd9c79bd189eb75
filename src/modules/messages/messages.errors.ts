import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum MessageErrorCode {
  SessionNotFound = 'SESSION_NOT_FOUND',
  RecipientClosed = 'RECIPIENT_CLOSED',
  IdempotencyConflict = 'IDEMPOTENCY_CONFLICT',
}

export class MessageError extends DomainError<MessageErrorCode> {
  private existing?: string;

  static sessionNotFound(sessionId: string, projectId: string) {
    return new MessageError(MessageErrorCode.SessionNotFound, `session not found in project ${projectId}: ${sessionId}`);
  }

  static recipientClosed(sessionId: string) {
    return new MessageError(MessageErrorCode.RecipientClosed, `session ${sessionId} is closed and will never read this message; address its agent name or the project instead`);
  }

  static idempotencyConflict(key: string, existingId: string) {
    const error = new MessageError(
      MessageErrorCode.IdempotencyConflict,
      `idempotency_key ${key} was already used for a different message (${existingId}); use a new key for a new message`,
    );
    error.existing = existingId;
    return error;
  }

  override get extra() {
    return this.existing ? { existing_message_id: this.existing } : undefined;
  }

  get httpStatus(): number {
    switch (this.code) {
      case MessageErrorCode.SessionNotFound:
        return 404;
      case MessageErrorCode.RecipientClosed:
        return 409;
      case MessageErrorCode.IdempotencyConflict:
        return 409;
      default:
        return assertUnreachable(this.code);
    }
  }
}
