import { LOCAL_SCHEMA, TenantContext } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';

/** Id of the single tenant of a self-hosted instance. */
export const LOCAL_TENANT_ID = '00000000-0000-0000-0000-000000000000';

/** The one tenant of a self-hosted instance: the SQLite file, or the t_local schema on Postgres. */
export function localTenant(config: AppConfig): TenantContext {
  return {
    tenantId: LOCAL_TENANT_ID,
    schema: config.databaseType === 'postgres' ? LOCAL_SCHEMA : null,
    role: null,
    byodbUrlEncrypted: null,
  };
}
