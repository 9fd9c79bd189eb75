import { ApiTokenRecord } from '../modules/tenants/api-token.entity';
import { TenantRecord } from '../modules/tenants/tenant.entity';

/** Control-plane entities (hosted mode, `control` schema of the shared cluster). */
export const CONTROL_ENTITIES = [TenantRecord, ApiTokenRecord];
