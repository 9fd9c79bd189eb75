import { quoteIdent } from './sql';
import { TenantContext } from './tenant-context';
import { BYODB_SCHEMA } from './tenant-schema';

/** A tenant's schema and role (none for a BYODB database, whose connection owns it). */
export interface Where {
  schema: string;
  role: string | null;
}

/** The tenant whose own database holds `tenant`'s data (itself, with BYODB), or null for the shared cluster. */
export function storageOwner(tenant: TenantContext): string | null {
  return tenant.byodbUrlEncrypted ? tenant.tenantId : null;
}

/** Where `tenant`'s data lives on the storage it uses: its schema and role on the shared cluster, `baton` in its own database. */
export function whereOf(tenant: TenantContext): Where {
  if (tenant.byodbUrlEncrypted) return { schema: BYODB_SCHEMA, role: null };
  if (!tenant.schema) throw new Error(`Tenant ${tenant.tenantId} has no schema on the shared cluster`);
  return { schema: tenant.schema, role: tenant.role };
}

/** The transaction-local statements that confine what follows to `where`, each statement bounded by `statementTimeoutMs`. */
export function scopeStatements({ schema, role }: Where, statementTimeoutMs: number): string {
  return `SET LOCAL search_path TO ${quoteIdent(schema)}; SET LOCAL statement_timeout TO ${Math.trunc(statementTimeoutMs)}${role ? `; SET LOCAL ROLE ${quoteIdent(role)}` : ''}`;
}
