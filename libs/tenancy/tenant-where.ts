import { quoteIdent } from './sql';
import { TenantContext } from './tenant-context';
import { BYODB_SCHEMA } from './tenant-schema';

/** A tenant's schema and role (none for a BYODB database, whose connection owns it). */
export interface Where {
  schema: string;
  role: string | null;
}

/**
 * Which storage holds `tenant`'s data: its own id for its own database (BYODB), `server:<key>`
 * for a server of `SERVICE_TENANT_DB_URLS` other than the control plane's, null for the control
 * plane's database.
 */
export function storageOwner(tenant: TenantContext): string | null {
  if (tenant.byodbUrlEncrypted) return tenant.tenantId;
  return tenant.server ? `server:${tenant.server}` : null;
}

/** Where `tenant`'s data lives on the storage it uses: its schema and role on the shared cluster, `baton` in its own database. */
export function whereOf(tenant: TenantContext): Where {
  if (tenant.byodbUrlEncrypted) return { schema: BYODB_SCHEMA, role: null };
  if (!tenant.schema) throw new Error(`Tenant ${tenant.tenantId} has no schema`);
  return { schema: tenant.schema, role: tenant.role };
}

/** The transaction-local statements that confine what follows to `where`, each statement bounded by `statementTimeoutMs`. */
export function scopeStatements({ schema, role }: Where, statementTimeoutMs: number): string {
  return `SET LOCAL search_path TO ${quoteIdent(schema)}; SET LOCAL statement_timeout TO ${Math.trunc(statementTimeoutMs)}${role ? `; SET LOCAL ROLE ${quoteIdent(role)}` : ''}`;
}
