import { DataSource, QueryRunner } from 'typeorm';
import { CONTROL_SCHEMA, createTenantSchema, dropTenantSchema, latestMigrationName, quoteIdent, runMigrations } from '../../../libs/tenancy';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { HeldLock, tryLockFor } from '../../database/lock-transaction';
import { stopNotingChanges, withLockRetries } from './tenant-changes';
import { copiedTables, qualified, tablesOf } from './tenant-copy';

/**
 * The parts of `npm run tenant:move` (src/cli/tenant-move.ts) that talk to Postgres: one tenant's
 * schema and role prepared, frozen, closed, dropped or given back; the copy itself is
 * tenant-copy.ts. Every function takes the query runners it works on; the command holds the order
 * and the abort.
 */

/** The control-plane row of a tenant to move. */
export interface MovingTenant {
  id: string;
  name: string;
  schema_name: string;
  role_name: string | null;
  db_url_sealed: string | null;
  db_server: string | null;
  moving_to: string | null;
  migrated_to: string | null;
  status: string;
}

/** Advisory-lock keys (two int4) of a tenant's move. */
const MOVE_LOCK = "hashtext('baton tenant move'), hashtext($1)";
/** How often the lock's idle transaction says something, so no idle timeout ends it. */

export async function tenantRow(control: QueryRunner, tenantId: string): Promise<MovingTenant | undefined> {
  const rows: MovingTenant[] = await control.query(
    `SELECT id, name, schema_name, role_name, db_url_sealed, db_server, moving_to, migrated_to, status FROM ${CONTROL_SCHEMA}.tenants WHERE id = $1`,
    [tenantId],
  );
  return rows[0];
}

/**
 * Takes the tenant's move lock without waiting, or returns undefined when another run holds it.
 * As the migration lock (src/database/migration-lock.ts), a transaction-scoped advisory lock in a
 * transaction of its own connection, held open (with a heartbeat) until `release`: it stays on one
 * server connection behind a transaction-mode pooler, and Postgres lets it go when that connection
 * ends, however the run ended. So a `moving_to` found set while the lock is free was left by a run
 * that is gone.
 */
export function holdMoveLock(control: DataSource, tenantId: string, label: string): Promise<HeldLock | null> {
  return tryLockFor(control, MOVE_LOCK, [tenantId], label);
}

/** Whether the tenant is behind the tenant migrations (a move copies between identical shapes only). */
export function isCurrent(tenant: MovingTenant): boolean {
  return tenant.migrated_to === latestMigrationName(TENANT_MIGRATIONS);
}
/** Rows and bytes on disk (indexes included) of each table a move copies, for a dry run. */
export async function sizesOf(runner: QueryRunner, schema: string): Promise<{ table: string; rows: number; bytes: number }[]> {
  const out: { table: string; rows: number; bytes: number }[] = [];
  for (const table of await copiedTables(runner, schema)) {
    const [row]: { rows: string; bytes: string }[] = await runner.query(
      `SELECT (SELECT count(*) FROM ${qualified(schema, table)}) AS rows, pg_total_relation_size($1::regclass) AS bytes`,
      [qualified(schema, table)],
    );
    out.push({ table, rows: Number(row.rows), bytes: Number(row.bytes) });
  }
  return out;
}

export async function schemaExists(runner: QueryRunner, schema: string): Promise<boolean> {
  return (await runner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).length > 0;
}

/** The role's oid on a server's cluster, or undefined when the cluster has no such role. */
async function roleOid(runner: QueryRunner, role: string): Promise<string | undefined> {
  const rows: { oid: string }[] = await runner.query('SELECT oid::text AS oid FROM pg_roles WHERE rolname = $1', [role]);
  return rows[0]?.oid;
}

/**
 * Whether two servers are databases of one Postgres cluster, where roles are shared: then the
 * tenant's role exists on both with the same oid and both postmasters started at the same instant.
 */
export async function sameCluster(a: QueryRunner, b: QueryRunner, role: string): Promise<boolean> {
  const [oidA, oidB] = [await roleOid(a, role), await roleOid(b, role)];
  if (!oidA || oidA !== oidB) return false;
  const started = async (r: QueryRunner) => ((await r.query('SELECT pg_postmaster_start_time()::text AS at')) as { at: string }[])[0].at;
  return (await started(a)) === (await started(b));
}

/** On the target: the tenant's role (unless the cluster has it already) and an empty schema it owns, migrated as the tenant's. Returns whether the role was made here. */
export async function prepareTarget(target: QueryRunner, schema: string, role: string): Promise<boolean> {
  const hadRole = (await roleOid(target, role)) !== undefined;
  await target.query('BEGIN');
  try {
    if (hadRole) await target.query(`GRANT ${quoteIdent(role)} TO CURRENT_USER; CREATE SCHEMA ${quoteIdent(schema)} AUTHORIZATION ${quoteIdent(role)}`);
    else await createTenantSchema(target, schema, role);
    await target.query('COMMIT');
  } catch (error) {
    await target.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  await runMigrations(target, TENANT_MIGRATIONS, { dialect: 'postgres', schema, role });
  return !hadRole;
}

/**
 * Freezes the tenant's writes on the source, for every instance at once: in one transaction,
 * every table locked in SHARE mode (which waits for the writers already running, and holds new
 * ones back for as long as the transaction lasts), then INSERT, UPDATE, DELETE and TRUNCATE
 * revoked from the tenant's role, which owns the tables (and its sequences' nextval, so their
 * values hold still until they are copied and compared). Postgres checks privileges at each
 * execution, prepared statements included, so once this commits no write of the tenant can
 * succeed, and every write that succeeded before is committed. A lock not had within `lockWaitMs`
 * (a long transaction of the tenant) is tried again a few times, then the move gives up.
 */
export async function freezeWrites(source: QueryRunner, schema: string, role: string, lockWaitMs: number): Promise<void> {
  const tables = (await tablesOf(source, schema)).map((t) => qualified(schema, t.name));
  const [s, r] = [quoteIdent(schema), quoteIdent(role)];
  await withLockRetries(
    source,
    lockWaitMs,
    `${tables.length ? `LOCK TABLE ${tables.join(', ')} IN SHARE MODE; ` : ''}REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA ${s} FROM ${r}; REVOKE USAGE, UPDATE ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}`,
  );
}

/** Gives the tenant's role back every right on its schema and what is in it (a move that did not happen). */
export async function restoreRights(source: QueryRunner, schema: string, role: string): Promise<void> {
  if (!(await schemaExists(source, schema))) return;
  const [s, r] = [quoteIdent(schema), quoteIdent(role)];
  await source.query(`GRANT ALL ON SCHEMA ${s} TO ${r}; GRANT ALL ON ALL TABLES IN SCHEMA ${s} TO ${r}; GRANT ALL ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`);
}

/** Takes every right on its old schema from the tenant's role: an instance still sending it there reads nothing stale. */
export async function closeSource(source: QueryRunner, schema: string, role: string): Promise<void> {
  const [s, r] = [quoteIdent(schema), quoteIdent(role)];
  await source.query(`REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r}; REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}; REVOKE ALL ON SCHEMA ${s} FROM ${r}`);
}

/** Removes the schema, and with `role` the role too (left out when the role's cluster also holds the tenant's other schema). */
export async function dropSchema(runner: QueryRunner, schema: string, role: string | null): Promise<void> {
  await dropTenantSchema(runner, schema, role);
}

/** The SQL that drops what a move left on a server (run there as a user that may). */
export function dropSql(schema: string, role: string | null): string {
  return `DROP SCHEMA ${quoteIdent(schema)} CASCADE;${role ? ` DROP OWNED BY ${quoteIdent(role)}; DROP ROLE ${quoteIdent(role)};` : ''}`;
}

/**
 * Undoes a move to `toKey` that did not switch: the tenant's rights on its schema back (first:
 * it is writable again from here on), the target's copy dropped (its role too when the run made
 * it, or, for a run that is gone, when the target's cluster is not the source's), `moving_to`
 * cleared. A target that cannot be reached (or `openTarget` undefined: not configured) keeps its
 * copy: that failure is returned, and a later move there refuses until the copy is dropped.
 */
export async function undoMove(
  control: QueryRunner,
  source: QueryRunner,
  openTarget: (() => Promise<QueryRunner>) | undefined,
  tenant: MovingTenant,
  toKey: string,
  createdRole: boolean | undefined,
): Promise<unknown> {
  const role = tenant.role_name as string;
  await restoreRights(source, tenant.schema_name, role);
  if (await schemaExists(source, tenant.schema_name)) await stopNotingChanges(source, tenant.schema_name);
  let leftover: unknown;
  if (openTarget) {
    try {
      const target = await openTarget();
      const dropRole = createdRole ?? !(await sameCluster(source, target, role));
      if ((await schemaExists(target, tenant.schema_name)) || (createdRole && dropRole)) await dropSchema(target, tenant.schema_name, dropRole ? role : null);
    } catch (error) {
      leftover = error;
    }
  }
  await control.query(`UPDATE ${CONTROL_SCHEMA}.tenants SET moving_to = NULL WHERE id = $1 AND moving_to = $2`, [tenant.id, toKey]);
  return leftover;
}
