import { CodehostConnection } from '../modules/auth-providers/codehost-connection.entity';
import { MagicLinkRecord } from '../modules/magic-link/magic-link.entity';
import { HostedProfileLayer } from '../modules/profile-layers/hosted-profile-layer.entity';
import { HostedProfileLayerRevision } from '../modules/profile-layers/hosted-profile-layer-revision.entity';
import { ApiTokenRecord } from '../modules/tenants/api-token.entity';
import { TenantRecord } from '../modules/tenants/tenant.entity';

/** Control-plane entities (hosted mode, `control` schema of the shared cluster). */
export const CONTROL_ENTITIES = [TenantRecord, ApiTokenRecord, HostedProfileLayer, HostedProfileLayerRevision, CodehostConnection, MagicLinkRecord];
