import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

/**
 * Refusals of the authorization server's own routes: self-hosted (404), and a connector's poll
 * (/auth/tunnel-poll, /auth/hooks-status), whose codes follow RFC 8628 §3.5.
 */
export enum OAuthServerCode {
  NotHosted = 'OAUTH_NOT_HOSTED',
  AuthorizationPending = 'AUTHORIZATION_PENDING',
  SlowDown = 'SLOW_DOWN',
  AccessDenied = 'ACCESS_DENIED',
  ExpiredToken = 'EXPIRED_TOKEN',
  InvalidGrant = 'INVALID_GRANT',
}

const STATUS: StatusTable<OAuthServerCode> = {
  [OAuthServerCode.NotHosted]: HttpStatus.NOT_FOUND,
  [OAuthServerCode.AuthorizationPending]: HttpStatus.BAD_REQUEST,
  [OAuthServerCode.SlowDown]: HttpStatus.BAD_REQUEST,
  [OAuthServerCode.AccessDenied]: HttpStatus.FORBIDDEN,
  [OAuthServerCode.ExpiredToken]: HttpStatus.BAD_REQUEST,
  [OAuthServerCode.InvalidGrant]: HttpStatus.BAD_REQUEST,
};

export class OAuthServerError extends DomainErrorOf(STATUS) {
  private constructor(code: OAuthServerCode, detail: string) {
    super(code, detail);
  }

  static notHosted() {
    return new OAuthServerError(
      OAuthServerCode.NotHosted,
      'OAuth, device sign-in and their discovery documents exist on hosted Baton only: a self-hosted instance needs no token (connect to /mcp directly)',
    );
  }

  static pending() {
    return new OAuthServerError(OAuthServerCode.AuthorizationPending, 'waiting for the person to approve the code at /activate: poll again after the interval');
  }

  static slowDown(intervalS: number) {
    return new OAuthServerError(OAuthServerCode.SlowDown, `poll at most once every ${intervalS} seconds (add 5 seconds to your interval)`);
  }

  static denied() {
    return new OAuthServerError(OAuthServerCode.AccessDenied, 'the person denied this connection at /activate');
  }

  static expired() {
    return new OAuthServerError(OAuthServerCode.ExpiredToken, 'the code expired before anyone approved it: start again');
  }

  static unknown() {
    return new OAuthServerError(OAuthServerCode.InvalidGrant, 'unknown or already used device_code: start again');
  }
}
