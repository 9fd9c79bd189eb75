import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum AuthProviderErrorCode {
  NotHosted = 'SIGN_IN_NOT_HOSTED',
  ProviderNotOffered = 'PROVIDER_NOT_OFFERED',
  UnsafeNext = 'UNSAFE_NEXT',
  ConnectionNotFound = 'CODEHOST_CONNECTION_NOT_FOUND',
}

const STATUS: StatusTable<AuthProviderErrorCode> = {
  [AuthProviderErrorCode.NotHosted]: HttpStatus.NOT_FOUND,
  [AuthProviderErrorCode.ProviderNotOffered]: HttpStatus.NOT_FOUND,
  [AuthProviderErrorCode.UnsafeNext]: HttpStatus.BAD_REQUEST,
  [AuthProviderErrorCode.ConnectionNotFound]: HttpStatus.NOT_FOUND,
};

export class AuthProviderError extends DomainErrorOf(STATUS) {
  static notHosted() {
    return new AuthProviderError(AuthProviderErrorCode.NotHosted, 'sign-in is for hosted mode: a self-hosted Baton has no accounts and needs no sign-in');
  }

  static notOffered(provider: string) {
    const prefix = provider === 'repo' ? 'CODEHOST' : provider.toUpperCase();
    return new AuthProviderError(
      AuthProviderErrorCode.ProviderNotOffered,
      `${provider === 'repo' ? 'repository connection' : `sign-in with ${provider}`} is not offered here (${prefix}_CLIENT_ID and ${prefix}_CLIENT_SECRET are not set)`,
    );
  }

  static unsafeNext() {
    return new AuthProviderError(AuthProviderErrorCode.UnsafeNext, 'next must be a path on this site, starting with a single "/"');
  }

  static connectionNotFound(login: string) {
    return new AuthProviderError(AuthProviderErrorCode.ConnectionNotFound, `no code-host connection for account_login ${login}`);
  }
}
