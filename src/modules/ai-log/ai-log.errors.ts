import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum AiLogErrorCode {
  SessionNotFound = 'SESSION_NOT_FOUND',
  ExportDisabledByOperator = 'AI_LOG_EXPORT_DISABLED_BY_OPERATOR',
  CredentialsRefused = 'CREDENTIALS_NOT_ACCEPTED',
  EndpointRefused = 'ENDPOINT_REFUSED',
}

const STATUS: StatusTable<AiLogErrorCode> = {
  [AiLogErrorCode.SessionNotFound]: HttpStatus.NOT_FOUND,
  [AiLogErrorCode.ExportDisabledByOperator]: HttpStatus.CONFLICT,
  [AiLogErrorCode.CredentialsRefused]: HttpStatus.BAD_REQUEST,
  [AiLogErrorCode.EndpointRefused]: HttpStatus.BAD_REQUEST,
};

export class AiLogError extends DomainErrorOf(STATUS) {
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
}
