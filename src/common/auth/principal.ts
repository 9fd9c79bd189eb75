import type { Request } from 'express';
import type { TenantContext } from '../../../libs/tenancy';

export type MemberRole = 'owner' | 'admin' | 'member';

/**
 * Who a request acts as. `local`: a self-hosted instance, where project routes
 * need no credential. `token`: a bearer API token of a workspace. `session`: a
 * person signed in by the web-session cookie, acting in their current workspace.
 */
export interface Principal {
  kind: 'local' | 'token' | 'session';
  tenantId: string;
  /** The signed-in person (sessions), or the token's creator when known. */
  accountId?: string;
  /** The person's role in the workspace (sessions). */
  role?: MemberRole;
  /** The web session (sessions). */
  sessionId?: string;
  /** A read-only credential: state-changing requests are refused. */
  readOnly?: boolean;
}

export type PrincipalRequest = Request & { tenant?: TenantContext; principal?: Principal };
