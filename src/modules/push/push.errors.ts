import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum PushErrorCode {
  TenantNotFound = 'TENANT_NOT_FOUND',
}

const STATUS: StatusTable<PushErrorCode> = {
  [PushErrorCode.TenantNotFound]: HttpStatus.NOT_FOUND,
};

export class PushError extends DomainErrorOf(STATUS) {
  static tenantNotFound(id: string) {
    return new PushError(PushErrorCode.TenantNotFound, `tenant not found: ${id}`);
  }
}
