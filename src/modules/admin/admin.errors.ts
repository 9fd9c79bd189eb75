import { HttpStatus } from '@nestjs/common';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';

export enum AdminErrorCode {
  SnapshotUnavailable = 'SNAPSHOT_UNAVAILABLE',
  ExitUnavailable = 'EXIT_UNAVAILABLE',
}

const STATUS: StatusTable<AdminErrorCode> = {
  [AdminErrorCode.SnapshotUnavailable]: HttpStatus.CONFLICT,
  [AdminErrorCode.ExitUnavailable]: HttpStatus.CONFLICT,
};

/** Refusals of the operator's routes. */
export class AdminError extends DomainErrorOf(STATUS) {
  static snapshotOnPostgres() {
    return new AdminError(AdminErrorCode.SnapshotUnavailable, 'this instance keeps its data in Postgres: take a snapshot with pg_dump');
  }

  static exitUnavailable() {
    return new AdminError(AdminErrorCode.ExitUnavailable, "this process was not started by Baton's own entry point (npm start): it cannot stop itself");
  }
}
