import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum PushErrorCode {
  TenantNotFound = 'TENANT_NOT_FOUND',
}

export class PushError extends DomainError<PushErrorCode> {
  static tenantNotFound(id: string) {
    return new PushError(PushErrorCode.TenantNotFound, `tenant not found: ${id}`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case PushErrorCode.TenantNotFound:
        return 404;
      default:
        return assertUnreachable(this.code);
    }
  }
}
