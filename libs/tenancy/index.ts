export { Availability, type AvailabilityChange, isDatabaseUnavailable } from './availability';
export { ByodbPools } from './byodb-pools';
export { latestMigrationName, MigrationClass, runMigrations } from './migration-runner';
export { SecretBox } from './secret-box';
export { bindParams, Dialect, forDialect, fromSqlTimestamp, quoteIdent, sqlTimestamp } from './sql';
export {
  currentTenant,
  enterRequestTenant,
  extendRequestDeadline,
  maybeCurrentTenant,
  requestDeadline,
  requestScope,
  runInRequestScope,
  runWithTenant,
  TenantContext,
} from './tenant-context';
export { TenantDb, type TenantDbLimits } from './tenant-db';
export { DatabaseBusyError, DeadlinePassedError, OwnDatabaseRefusedError, TenantShare } from './tenant-share';
export { BYODB_SCHEMA, CONTROL_SCHEMA, createTenantSchema, dropTenantSchema, LOCAL_SCHEMA, roleNameFor, schemaNameFor } from './tenant-schema';
