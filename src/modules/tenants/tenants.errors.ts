import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum TenantErrorCode {
  NotHosted = 'NOT_HOSTED',
  DatabaseRefused = 'DATABASE_REFUSED',
  WorkspaceNotEmpty = 'WORKSPACE_NOT_EMPTY',
  TenantNotFound = 'TENANT_NOT_FOUND',
  ReadOnlyToken = 'READ_ONLY_TOKEN',
}

const STATUS: StatusTable<TenantErrorCode> = {
  [TenantErrorCode.NotHosted]: HttpStatus.BAD_REQUEST,
  [TenantErrorCode.DatabaseRefused]: HttpStatus.BAD_REQUEST,
  [TenantErrorCode.WorkspaceNotEmpty]: HttpStatus.CONFLICT,
  [TenantErrorCode.TenantNotFound]: HttpStatus.NOT_FOUND,
  [TenantErrorCode.ReadOnlyToken]: HttpStatus.FORBIDDEN,
};

export class TenantError extends DomainErrorOf(STATUS) {
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
      undefined,
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

  /** A read-scope API token asked for something that changes state. */
  static readOnlyToken(what: string) {
    return new TenantError(TenantErrorCode.ReadOnlyToken, `this API token has the read scope and may only read: ${what} needs a full-scope token`);
  }
}
