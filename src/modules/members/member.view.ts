import { MemberRole } from '../../common/auth/principal';
import { CodehostAccess } from './member-rights.util';

/** A row of control.memberships with the account's name, as the listing query returns it. */
export interface MemberRow {
  id: string;
  tenant_id: string;
  account_id: string | null;
  email: string;
  name: string | null;
  role: MemberRole;
  codehost_access: CodehostAccess;
  status: 'invited' | 'active';
  joined_at: Date | null;
  invite_expires_at: Date | null;
}

/** A workspace member (or invited person) as clients see it. */
export interface MemberView {
  id: string;
  email: string;
  name: string | null;
  role: MemberRole;
  codehost_access: CodehostAccess;
  status: 'invited' | 'active';
  joined_at: string | null;
  /** When an invitation's link stops working; null once joined. */
  invite_expires_at: string | null;
}

export function memberView(row: MemberRow): MemberView {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    codehost_access: row.codehost_access,
    status: row.status,
    joined_at: row.joined_at?.toISOString() ?? null,
    invite_expires_at: row.status === 'invited' ? (row.invite_expires_at?.toISOString() ?? null) : null,
  };
}

/** The columns MemberRow reads, for `FROM control.memberships m LEFT JOIN control.accounts a ON a.id = m.account_id`. */
export const MEMBER_COLUMNS = 'm.id, m.tenant_id, m.account_id, m.email, a.name, m.role, m.codehost_access, m.status, m.joined_at, m.invite_expires_at';
