import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum AuthTokenErrorCode {
  NotHosted = 'NOT_HOSTED',
  TokenNotFound = 'TOKEN_NOT_FOUND',
  NotAllowed = 'NOT_ALLOWED',
}

const STATUS: StatusTable<AuthTokenErrorCode> = {
  [AuthTokenErrorCode.NotHosted]: HttpStatus.NOT_FOUND,
  [AuthTokenErrorCode.TokenNotFound]: HttpStatus.NOT_FOUND,
  [AuthTokenErrorCode.NotAllowed]: HttpStatus.FORBIDDEN,
};

export class AuthTokenError extends DomainErrorOf(STATUS) {
  static notHosted() {
    return new AuthTokenError(AuthTokenErrorCode.NotHosted, 'API tokens are for hosted mode: a self-hosted Baton needs no token');
  }

  static notFound(id: string) {
    return new AuthTokenError(AuthTokenErrorCode.TokenNotFound, `API token ${id} not found in this workspace`);
  }

  static notAllowed(detail: string) {
    return new AuthTokenError(AuthTokenErrorCode.NotAllowed, detail);
  }
}
