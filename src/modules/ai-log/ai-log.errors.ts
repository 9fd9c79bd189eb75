import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum AiLogErrorCode {
  SessionNotFound = 'SESSION_NOT_FOUND',
  ExportDisabledByOperator = 'AI_LOG_EXPORT_DISABLED_BY_OPERATOR',
  CredentialsRefused = 'CREDENTIALS_NOT_ACCEPTED',
  EndpointRefused = 'ENDPOINT_REFUSED',
}

export class AiLogError extends DomainError<AiLogErrorCode> {
  /** A session that is not one of the project's (or does not exist): the same answer either way. */
  static sessionNotFound(id: string) {
    return new AiLogError(AiLogErrorCode.SessionNotFound, `session not found in this project: ${id}`);
  }

  static exportDisabledByOperator() {
    return new AiLogError(
      AiLogErrorCode.ExportDisabledByOperator,
      'AI-log export is switched off by the operator (SERVICE_AI_LOG_OTEL_ENABLED): a project can turn it off, never on',
    );
  }

  static credentialsRefused(field: string, reason: string) {
    return new AiLogError(
      AiLogErrorCode.CredentialsRefused,
      `${field} ${reason}; a project's export settings never hold credentials (the operator sets them in SERVICE_AI_LOG_OTEL_HEADERS)`,
    );
  }

  /** A project endpoint on an address hosted Baton does not connect to (loopback, private, link-local, ...). */
  static endpointRefused(reason: string) {
    return new AiLogError(AiLogErrorCode.EndpointRefused, `endpoint refused: ${reason}`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case AiLogErrorCode.SessionNotFound:
        return 404;
      case AiLogErrorCode.ExportDisabledByOperator:
        return 409;
      case AiLogErrorCode.CredentialsRefused:
      case AiLogErrorCode.EndpointRefused:
        return 400;
      default:
        return assertUnreachable(this.code);
    }
  }
}
