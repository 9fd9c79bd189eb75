import { assertUnreachable, DomainError } from '../../common/errors/domain-error';

export enum TenantErrorCode {
  NotHosted = 'NOT_HOSTED',
  DatabaseRefused = 'DATABASE_REFUSED',
  WorkspaceNotEmpty = 'WORKSPACE_NOT_EMPTY',
  TenantNotFound = 'TENANT_NOT_FOUND',
}

export class TenantError extends DomainError<TenantErrorCode> {
  static notHosted(what: string) {
    return new TenantError(TenantErrorCode.NotHosted, `${what} is only available in hosted mode`);
  }

  /**
   * The one answer to a database Baton will not use, whatever the reason (host
   * refused, port closed, open or silent, bad credentials, claimed by another
   * workspace): telling them apart would let a tenant scan what Baton can reach.
   */
  static databaseRefused(cause?: unknown) {
    return new TenantError(
      TenantErrorCode.DatabaseRefused,
      'Baton could not use this database: it must be a Postgres server on a public address that accepts these credentials, and not already connected to another workspace',
      { cause },
    );
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
      case TenantErrorCode.DatabaseRefused:
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
