import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum TenantErrorCode {
  NotHosted = 'NOT_HOSTED',
  DatabaseUnreachable = 'DATABASE_UNREACHABLE',
  WorkspaceNotEmpty = 'WORKSPACE_NOT_EMPTY',
  TenantNotFound = 'TENANT_NOT_FOUND',
}

export class TenantError extends DomainError<TenantErrorCode> {
  static notHosted(what: string) {
    return new TenantError(TenantErrorCode.NotHosted, `${what} is only available in hosted mode`);
  }

  static databaseUnreachable(reason: string, cause?: unknown) {
    return new TenantError(TenantErrorCode.DatabaseUnreachable, `could not use the database: ${reason}`, { cause });
  }

  static workspaceNotEmpty(projects: number) {
    return new TenantError(
      TenantErrorCode.WorkspaceNotEmpty,
      `this workspace already holds ${projects} project(s) in Baton's database; delete or export them before connecting your own database, so nothing is left behind`,
    );
  }

  static notFound(id: string) {
    return new TenantError(TenantErrorCode.TenantNotFound, `tenant ${id} not found`);
  }

  get httpStatus(): number {
    switch (this.code) {
      case TenantErrorCode.NotHosted:
        return 400;
      case TenantErrorCode.DatabaseUnreachable:
        return 400;
      case TenantErrorCode.WorkspaceNotEmpty:
        return 409;
      case TenantErrorCode.TenantNotFound:
        return 404;
      default:
        return assertUnreachable(this.code);
    }
  }
}
