import { MemberRole } from '../../common/auth/principal';

export const MEMBER_ROLES: readonly MemberRole[] = ['owner', 'admin', 'member'];
export const CODEHOST_ACCESS = ['none', 'read', 'write'] as const;
export type CodehostAccess = (typeof CODEHOST_ACCESS)[number];

/**
 * Who may do what to a workspace's members. Owners may do anything; admins
 * manage admins and members but never touch an owner nor make one; members
 * only read the list, and may leave. The last owner is guarded apart
 * (MembersService), whoever asks.
 */
export function mayInvite(actor: MemberRole, role: MemberRole): boolean {
  if (actor === 'owner') return true;
  return actor === 'admin' && role !== 'owner';
}

/** Whether `actor` may change a member holding `target` to `newRole` (unchanged when undefined) or change its code-host access. */
export function mayChange(actor: MemberRole, target: MemberRole, newRole?: MemberRole): boolean {
  if (actor === 'owner') return true;
  return actor === 'admin' && target !== 'owner' && newRole !== 'owner';
}

/** Whether `actor` may remove a member holding `target`; `self` when it is the actor's own membership (leaving). */
export function mayRemove(actor: MemberRole, target: MemberRole, self: boolean): boolean {
  if (self || actor === 'owner') return true;
  return actor === 'admin' && target !== 'owner';
}

/** `an owner`, `an admin`, `a member`: a role in a sentence. */
export function aRole(role: MemberRole): string {
  return role === 'member' ? 'a member' : `an ${role}`;
}
