import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { WebSessions } from '../accounts/web-sessions.service';
import { TenantResolver } from '../tenants/tenant-resolver.service';
import { UpdateMemberDto } from './dto/update-member.dto';
import { aRole, mayChange, mayRemove } from './member-rights.util';
import { MEMBER_COLUMNS, MemberRow, memberView, MemberView } from './member.view';
import { findMember, lockWorkspace, memberActor, requireAnotherOwner } from './members-actor.util';
import { MembersError } from './members.errors';

/**
 * A workspace's members: the list, role and code-host access changes, and
 * removal. A removed member's web sessions stop reaching the workspace and the
 * API tokens they made in it are revoked: at once on this instance, and on
 * others once their cached lookups expire (SERVICE_TOKEN_CACHE_SECONDS), since
 * every lookup reads the membership and the token afresh.
 */
@Injectable()
export class MembersService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly sessions: WebSessions,
    private readonly resolver: TenantResolver,
    private readonly events: RealtimeEvents,
  ) {}

  /** Everyone of the workspace, joined members first, then pending invitations. Any credential of the workspace may read it. */
  async list(principal: Principal | undefined): Promise<MemberView[]> {
    if (!this.config.isHosted || !principal) throw MembersError.notHosted();
    const rows: MemberRow[] = await this.source.query(
      `SELECT ${MEMBER_COLUMNS} FROM control.memberships m LEFT JOIN control.accounts a ON a.id = m.account_id
        WHERE m.tenant_id = $1 ORDER BY m.status, COALESCE(m.joined_at, m.invited_at, m.created_at), m.email`,
      [principal.tenantId],
    );
    return rows.map(memberView);
  }

  async update(principal: Principal | undefined, memberId: string, change: UpdateMemberDto): Promise<MemberView> {
    const actor = memberActor(principal, this.config.isHosted);
    if (change.role === undefined && change.codehost_access === undefined) throw RequestError.invalidInput('give role or codehost_access (or both) to change');
    const updated = await this.source.transaction(async (m) => {
      await lockWorkspace(m, actor.tenantId);
      const target = await findMember(m, actor.tenantId, memberId);
      if (!mayChange(actor.role, target.role, change.role)) throw MembersError.notAllowed(change.role === 'owner' ? 'making an owner' : `changing ${aRole(target.role)}`);
      if (target.status === 'active' && target.role === 'owner' && change.role && change.role !== 'owner') {
        await requireAnotherOwner(m, actor.tenantId, target.id, 'demoted');
      }
      await m.query('UPDATE control.memberships SET role = COALESCE($2, role), codehost_access = COALESCE($3, codehost_access) WHERE id = $1', [
        target.id,
        change.role ?? null,
        change.codehost_access ?? null,
      ]);
      return findMember(m, actor.tenantId, target.id);
    });
    if (updated.account_id) this.sessions.forgetAccount(updated.account_id);
    this.events.publish({ tenantId: actor.tenantId, event: 'members_changed', data: {} });
    return memberView(updated);
  }

  /** Removes a member (or withdraws an invitation). Anyone may leave; the last owner may not. */
  async remove(principal: Principal | undefined, memberId: string): Promise<void> {
    const actor = memberActor(principal, this.config.isHosted);
    const { accountId, revoked } = await this.source.transaction(async (m) => {
      await lockWorkspace(m, actor.tenantId);
      const target = await findMember(m, actor.tenantId, memberId);
      if (!mayRemove(actor.role, target.role, target.account_id === actor.accountId)) throw MembersError.notAllowed(`removing ${aRole(target.role)}`);
      if (target.status === 'active' && target.role === 'owner') await requireAnotherOwner(m, actor.tenantId, target.id, 'removed');
      await m.query('DELETE FROM control.memberships WHERE id = $1', [target.id]);
      if (!target.account_id) return { accountId: null, revoked: [] as { token_hash: string }[] };
      const tokens: { token_hash: string }[] = await m.query(
        // Through a CTE: TypeORM answers a bare UPDATE ... RETURNING with [rows, count] on Postgres.
        'WITH u AS (UPDATE control.api_tokens SET revoked_at = now() WHERE tenant_id = $1 AND created_by = $2 AND revoked_at IS NULL RETURNING token_hash) SELECT token_hash FROM u',
        [actor.tenantId, target.account_id],
      );
      return { accountId: target.account_id, revoked: tokens };
    });
    for (const { token_hash } of revoked) this.resolver.forgetToken(token_hash);
    // OAuth access tokens the person was granted here end with the membership (the resolver reads it).
    if (accountId) this.resolver.forgetTenant(actor.tenantId);
    if (accountId) this.sessions.forgetAccount(accountId);
    this.events.publish({ tenantId: actor.tenantId, event: 'members_changed', data: {} });
  }
}
