import { EntityManager } from 'typeorm';
import { MemberRole, Principal } from '../../common/auth/principal';
import { MembersError } from './members.errors';
import { MEMBER_COLUMNS, MemberRow } from './member.view';

/** A signed-in person acting on their current workspace's members. */
export interface MemberActor {
  tenantId: string;
  accountId: string;
  role: MemberRole;
}

/** The person behind a request that manages members: a web session with a role, never a workspace's API token. */
export function memberActor(principal: Principal | undefined, hosted: boolean): MemberActor {
  if (!hosted) throw MembersError.notHosted();
  if (principal?.kind !== 'session' || !principal.accountId || !principal.role) throw MembersError.personRequired();
  return { tenantId: principal.tenantId, accountId: principal.accountId, role: principal.role };
}

/**
 * Takes the workspace's row lock for the rest of the transaction, so that
 * changes to one workspace's members run one at a time (two owners demoting
 * each other at once cannot leave none). NO KEY UPDATE does not hold up the
 * inserts that merely reference the workspace (web sessions, tokens).
 */
export async function lockWorkspace(m: EntityManager, tenantId: string): Promise<void> {
  await m.query('SELECT 1 FROM control.tenants WHERE id = $1 FOR NO KEY UPDATE', [tenantId]);
}

/** The member `memberId` of the workspace, or 404 (another workspace's member included). */
export async function findMember(m: EntityManager, tenantId: string, memberId: string): Promise<MemberRow> {
  const rows: MemberRow[] = await m.query(
    `SELECT ${MEMBER_COLUMNS} FROM control.memberships m LEFT JOIN control.accounts a ON a.id = m.account_id WHERE m.id = $1 AND m.tenant_id = $2`,
    [memberId, tenantId],
  );
  if (!rows[0]) throw MembersError.memberNotFound(memberId);
  return rows[0];
}

/** 409 unless the workspace keeps an active owner other than `memberId`. */
export async function requireAnotherOwner(m: EntityManager, tenantId: string, memberId: string, what: 'demoted' | 'removed'): Promise<void> {
  const rows: unknown[] = await m.query("SELECT 1 FROM control.memberships WHERE tenant_id = $1 AND role = 'owner' AND status = 'active' AND id <> $2 LIMIT 1", [
    tenantId,
    memberId,
  ]);
  if (rows.length === 0) throw MembersError.lastOwner(what);
}
