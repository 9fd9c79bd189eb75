import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum CodehostErrorCode {
  NotConnected = 'CODEHOST_NOT_CONNECTED',
  ConnectionNotFound = 'CODEHOST_CONNECTION_NOT_FOUND',
  ConnectionGone = 'CODEHOST_CONNECTION_GONE',
  SignedInPersonRequired = 'SIGNED_IN_PERSON_REQUIRED',
  TokenRejected = 'CODEHOST_TOKEN_REJECTED',
  PermissionDenied = 'CODEHOST_PERMISSION_DENIED',
  NotFound = 'CODEHOST_NOT_FOUND',
  FileChanged = 'CODEHOST_FILE_CHANGED',
  Refused = 'CODEHOST_REFUSED',
  RateLimited = 'CODEHOST_RATE_LIMITED',
  Unavailable = 'CODEHOST_UNAVAILABLE',
}

const STATUS: StatusTable<CodehostErrorCode> = {
  [CodehostErrorCode.NotConnected]: HttpStatus.CONFLICT,
  [CodehostErrorCode.ConnectionNotFound]: HttpStatus.NOT_FOUND,
  [CodehostErrorCode.ConnectionGone]: HttpStatus.CONFLICT,
  [CodehostErrorCode.SignedInPersonRequired]: HttpStatus.FORBIDDEN,
  [CodehostErrorCode.TokenRejected]: HttpStatus.UNPROCESSABLE_ENTITY,
  [CodehostErrorCode.PermissionDenied]: HttpStatus.FORBIDDEN,
  [CodehostErrorCode.NotFound]: HttpStatus.NOT_FOUND,
  [CodehostErrorCode.FileChanged]: HttpStatus.CONFLICT,
  [CodehostErrorCode.Refused]: HttpStatus.UNPROCESSABLE_ENTITY,
  [CodehostErrorCode.RateLimited]: HttpStatus.TOO_MANY_REQUESTS,
  [CodehostErrorCode.Unavailable]: HttpStatus.BAD_GATEWAY,
};

/** Refusals of a project's code-host integration. None ever carries a token. */
export class CodehostError extends DomainErrorOf(STATUS) {
  static notConnected(projectId: string) {
    return new CodehostError(CodehostErrorCode.NotConnected, `project ${projectId} is not connected to a code-host repository: POST .../codehost/connect first`);
  }

  static connectionNotFound(login: string) {
    return new CodehostError(
      CodehostErrorCode.ConnectionNotFound,
      `you have no code-host connection for account_login ${login}: connect it first (GET /auth/codehost/repo-connect; GET /codehost/connections lists yours)`,
    );
  }

  static connectionGone(login: string) {
    return new CodehostError(
      CodehostErrorCode.ConnectionGone,
      `the code-host connection ${login} this project used was removed: connect the project again (POST .../codehost/connect)`,
      { account_login: login },
    );
  }

  static signedInPersonRequired() {
    return new CodehostError(
      CodehostErrorCode.SignedInPersonRequired,
      "using a code-host connection of yours (account_login) needs you signed in (Baton's pages, the web session); an API token belongs to a workspace, not a person",
    );
  }

  static tokenRejected() {
    return new CodehostError(CodehostErrorCode.TokenRejected, 'the code host rejected the stored token (expired or revoked): connect again with a valid one');
  }

  static permissionDenied(login: string, repo: string, action: string, needed: string) {
    return new CodehostError(CodehostErrorCode.PermissionDenied, `the code-host account ${login} may not ${action} in ${repo}: it needs ${needed}; nothing was changed`, {
      needed,
    });
  }

  static forbiddenByCodehost(what: string, message: string) {
    return new CodehostError(CodehostErrorCode.PermissionDenied, `the code host refused access to ${what}: ${message}`);
  }

  static accessCapped(login: string, cap: 'none' | 'read', whose: 'owner' | 'caller' = 'owner') {
    const may = cap === 'none' ? 'use no code-host access' : 'only read from the code host';
    if (whose === 'caller') {
      return new CodehostError(
        CodehostErrorCode.PermissionDenied,
        `in this workspace you may ${may} (your codehost_access is ${cap}; an owner or admin changes it with PATCH /workspace/members/{member_id}); nothing was changed`,
        { codehost_access: cap },
      );
    }
    return new CodehostError(
      CodehostErrorCode.PermissionDenied,
      `in this workspace, the member whose connection ${login} this is may ${may} (their codehost_access is ${cap}; an owner or admin changes it with PATCH /workspace/members/{member_id}); nothing was changed`,
      { codehost_access: cap },
    );
  }

  static notFound(what: string) {
    return new CodehostError(CodehostErrorCode.NotFound, `the code host has no ${what} (or this connection cannot see it)`);
  }

  static fileChanged(path: string, currentSha: string | null) {
    return new CodehostError(CodehostErrorCode.FileChanged, `${path} is not at expected_sha any more: read it again; nothing was changed`, { current_sha: currentSha });
  }

  static refused(what: string, message: string) {
    return new CodehostError(CodehostErrorCode.Refused, `the code host refused ${what}: ${message}`);
  }

  static rateLimited(retryAfterSeconds: number) {
    return new CodehostError(CodehostErrorCode.RateLimited, `the code host's rate limit is reached: try again in ${retryAfterSeconds} s`, {
      retry_after_seconds: retryAfterSeconds,
    });
  }

  static unavailable(detail: string, cause?: unknown) {
    return new CodehostError(CodehostErrorCode.Unavailable, detail, undefined, { cause });
  }
}
