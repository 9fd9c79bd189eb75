import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum SessionErrorCode {
  NotFound = 'SESSION_NOT_FOUND',
  Closed = 'SESSION_CLOSED',
  FileLocked = 'FILE_LOCKED',
  LockNotHeld = 'LOCK_NOT_HELD',
}

const STATUS: StatusTable<SessionErrorCode> = {
  [SessionErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [SessionErrorCode.Closed]: HttpStatus.CONFLICT,
  [SessionErrorCode.FileLocked]: HttpStatus.CONFLICT,
  [SessionErrorCode.LockNotHeld]: HttpStatus.NOT_FOUND,
};

export interface LockHolder {
  holder_session_id: string;
  holder_name: string;
  holder_last_seen: string;
  claimed_at: string;
  expires_at: string;
}

export class SessionError extends DomainErrorOf(STATUS) {
  static notFound(id: string) {
    return new SessionError(SessionErrorCode.NotFound, `session not found: ${id}`);
  }

  static closed(id: string) {
    return new SessionError(SessionErrorCode.Closed, `session ${id} is closed: start a new session`);
  }

  static fileLocked(filePath: string, holder: LockHolder) {
    return new SessionError(
      SessionErrorCode.FileLocked,
      `${filePath} is locked by session ${holder.holder_name} (${holder.holder_session_id}), last seen ${holder.holder_last_seen}, until ${holder.expires_at}; pass force=true to take it over`,
      { claimed: false, ...holder },
    );
  }

  static noLiveLock(filePath: string) {
    return new SessionError(SessionErrorCode.LockNotHeld, `no session holds a lock on ${filePath}`);
  }

  static lockNotHeld(filePath: string, sessionId: string) {
    return new SessionError(SessionErrorCode.LockNotHeld, `session ${sessionId} holds no lock on ${filePath}`);
  }
}
