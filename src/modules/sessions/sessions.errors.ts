import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum SessionErrorCode {
  NotFound = 'SESSION_NOT_FOUND',
  Closed = 'SESSION_CLOSED',
  FileLocked = 'FILE_LOCKED',
  LockNotHeld = 'LOCK_NOT_HELD',
}

export interface LockHolder {
  holder_session_id: string;
  holder_name: string;
  holder_last_seen: string;
  claimed_at: string;
  expires_at: string;
}

export class SessionError extends DomainError<SessionErrorCode> {
  private holder?: LockHolder;

  static notFound(id: string) {
    return new SessionError(SessionErrorCode.NotFound, `session not found: ${id}`);
  }

  static closed(id: string) {
    return new SessionError(SessionErrorCode.Closed, `session ${id} is closed: start a new session`);
  }

  static fileLocked(filePath: string, holder: LockHolder) {
    const error = new SessionError(
      SessionErrorCode.FileLocked,
      `${filePath} is locked by session ${holder.holder_name} (${holder.holder_session_id}), last seen ${holder.holder_last_seen}, until ${holder.expires_at}; pass force=true to take it over`,
    );
    error.holder = holder;
    return error;
  }

  static lockNotHeld(filePath: string, sessionId: string) {
    return new SessionError(SessionErrorCode.LockNotHeld, `session ${sessionId} holds no lock on ${filePath}`);
  }

  override get extra() {
    return this.holder ? { claimed: false, ...this.holder } : undefined;
  }

  get httpStatus(): number {
    switch (this.code) {
      case SessionErrorCode.NotFound:
        return 404;
      case SessionErrorCode.Closed:
        return 409;
      case SessionErrorCode.FileLocked:
        return 409;
      case SessionErrorCode.LockNotHeld:
        return 404;
      default:
        return assertUnreachable(this.code);
    }
  }
}
