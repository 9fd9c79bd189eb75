import { QueryRunner } from 'typeorm';
import { quoteIdent } from './sql';

/** Schema of a BYODB tenant inside its own database. */
export const BYODB_SCHEMA = 'baton';
/** Schema of the single local tenant when self-hosted on Postgres. */
export const LOCAL_SCHEMA = 't_local';
/** Schema of the control plane (tenants, API tokens) in hosted mode. */
export const CONTROL_SCHEMA = 'control';

function compactId(tenantId: string): string {
  const hex = tenantId.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) throw new Error('tenant id must be a UUID');
  return hex;
}

/** `t_<32 hex>`: 34 characters, well under Postgres's 63-byte identifier limit. */
export function schemaNameFor(tenantId: string): string {
  return `t_${compactId(tenantId)}`;
}

/** Role names are cluster-wide, so they carry the full id to stay unique across databases. */
export function roleNameFor(tenantId: string): string {
  return `baton_t_${compactId(tenantId)}`;
}

/**
 * Creates a tenant's role and schema on the shared cluster. The role owns the
 * schema and is granted to the connecting user (so it can `SET ROLE`), and has
 * no rights anywhere else: a transaction running as this role cannot read
 * another tenant's schema or the control plane.
 */
export async function createTenantSchema(runner: QueryRunner, schema: string, role: string): Promise<void> {
  await runner.query(
    [
      `CREATE ROLE ${quoteIdent(role)} NOLOGIN NOINHERIT`,
      `GRANT ${quoteIdent(role)} TO CURRENT_USER`,
      `CREATE SCHEMA ${quoteIdent(schema)} AUTHORIZATION ${quoteIdent(role)}`,
    ].join('; '),
  );
}

/** Removes a tenant's schema with all its data, then its role. */
export async function dropTenantSchema(runner: QueryRunner, schema: string, role: string | null): Promise<void> {
  await runner.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  if (role) {
    const exists: unknown[] = await runner.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
    if (exists.length > 0) await runner.query(`DROP OWNED BY ${quoteIdent(role)}; DROP ROLE ${quoteIdent(role)}`);
  }
}
