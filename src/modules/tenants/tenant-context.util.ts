import { TenantContext } from '../../../libs/tenancy';
import { TenantRecord } from './tenant.entity';

/** The columns of a tenant's control-plane row that say where its data lives. */
export type TenantLocation = Pick<TenantRecord, 'id' | 'schema_name' | 'role_name' | 'db_url_sealed' | 'db_server'>;

/** The context a hosted tenant's work runs in, from its control-plane row: its server, schema, role and own database. */
export function tenantContextOf(row: TenantLocation): TenantContext {
  return { tenantId: row.id, schema: row.schema_name, role: row.role_name, byodbUrlEncrypted: row.db_url_sealed, server: row.db_server ?? null };
}
