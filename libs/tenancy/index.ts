export { Availability, type AvailabilityChange, isDatabaseBusy, isDatabaseUnavailable } from './availability';
export { ByodbPools } from './byodb-pools';
export { latestMigrationName, type MigrationClass, runMigrations } from './migration-runner';
export { type SealingKey, SecretBox } from './secret-box';
export { bindParams, type Dialect, forDialect, fromSqlTimestamp, quoteIdent, sqlTimestamp } from './sql';
export {
  currentTenant,
  enterRequestTenant,
  requestActorAccountId,
  markRequestAdmin,
  requestAdminActor,
  extendRequestDeadline,
  maybeCurrentTenant,
  requestDeadline,
  requestIsReadOnly,
  requestScope,
  answerLeaving,
  beforeAnswer,
  settleBeforeAnswer,
  runInRequestScope,
  runWithTenant,
  type TenantContext,
} from './tenant-context';
export { type Statement } from './postgres-transaction';
export { TenantDb, type TenantDbLimits } from './tenant-db';
export { DatabaseBusyError, DeadlinePassedError, OwnDatabaseRefusedError, TenantShare } from './tenant-share';
export { BYODB_SCHEMA, CONTROL_SCHEMA, createTenantSchema, dropTenantSchema, LOCAL_SCHEMA, roleNameFor, schemaNameFor } from './tenant-schema';
export { poolOf } from './pg-connection';
export { serverKeyOf, type TenantServer, TenantServers, UnknownTenantServerError } from './tenant-servers';
export { mayBeClosedByMove, MoveWatch, TENANT_MOVING_RETRY_AFTER_S, TenantMovingError } from './tenant-moving';
