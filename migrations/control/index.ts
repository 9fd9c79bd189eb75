import { MigrationClass } from '../../libs/tenancy';
import { ControlPlane1732240000000 } from './1732240000000-control-plane';
import { TenantPlan1732270000000 } from './1732270000000-tenant-plan';
import { HostedProfileDefaults1732280000000 } from './1732280000000-hosted-profile-defaults';

/** The control-plane set, oldest first. Append only. */
export const CONTROL_MIGRATIONS: MigrationClass[] = [ControlPlane1732240000000, TenantPlan1732270000000, HostedProfileDefaults1732280000000];
