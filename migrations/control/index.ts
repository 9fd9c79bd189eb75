import { MigrationClass } from '../../libs/tenancy';
import { ControlPlane1732240000000 } from './1732240000000-control-plane';
import { TenantPlan1732270000000 } from './1732270000000-tenant-plan';
import { HostedProfileDefaults1732280000000 } from './1732280000000-hosted-profile-defaults';
import { Accounts1732400000000 } from './1732400000000-accounts';
import { CodehostConnections1732410000000 } from './1732410000000-codehost-connections';
import { Invites1732440000000 } from './1732440000000-invites';
import { Billing1732450000000 } from './1732450000000-billing';
import { OAuthServer1732420000000 } from './1732420000000-oauth-server';
import { TokensAndMagicLinks1732430000000 } from './1732430000000-tokens-and-magic-links';
import { HostedProfileRevisionAuthors1732347200000 } from './1732347200000-hosted-profile-revision-authors';
import { TenantPlacement1732460000000 } from './1732460000000-tenant-placement';

/** The control-plane set, oldest first. Append only. */
export const CONTROL_MIGRATIONS: MigrationClass[] = [
  ControlPlane1732240000000,
  TenantPlan1732270000000,
  HostedProfileDefaults1732280000000,
  Accounts1732400000000,
  CodehostConnections1732410000000,
  OAuthServer1732420000000,
  TokensAndMagicLinks1732430000000,
  Invites1732440000000,
  Billing1732450000000,
  HostedProfileRevisionAuthors1732347200000,
  TenantPlacement1732460000000,
];
