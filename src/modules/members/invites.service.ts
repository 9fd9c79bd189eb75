import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { RequestError } from '../../common/errors/request-error';
import { PublicUrl } from '../../common/public-url';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { WebSessions } from '../accounts/web-sessions.service';
import { EmailQueue } from '../notifications/email-queue.service';
import { EmailSender } from '../notifications/email.sender';
import { InviteMemberDto } from './dto/invite-member.dto';
import { inviteEmail } from '../notifications/templates/invite.email';
import { aRole, mayInvite } from './member-rights.util';
import { MemberRow, memberView, MemberView } from './member.view';
import { findMember, lockWorkspace, MemberActor, memberActor } from './members-actor.util';
import { MembersError } from './members.errors';

/** How long an invitation's link works. */
export const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** `queued`: the invitation e-mail is on its way (sent in the background, retried); `skipped`: e-mail is not configured. */
export type InvitedMember = MemberView & { invite_email: 'queued' | 'skipped' };

/**
 * Invitations: a row of `memberships` with status `invited` and the SHA-256 of
 * a random token, which the e-mailed link carries. Sending again replaces the
 * token (the old link stops working); accepting consumes it in one
 * conditional UPDATE, so a link works once. The token alone admits no one:
 * the person who opens the link must be signed in with the invited address.
 */
/** Resends of one invitation per hour. */
export const INVITE_RESEND_LIMIT = { hits: 5, windowMs: 3_600_000 };

@Injectable()
export class InvitesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly sessions: WebSessions,
    private readonly email: EmailSender,
    private readonly queue: EmailQueue,
    private readonly publicUrl: PublicUrl,
    private readonly events: RealtimeEvents,
    private readonly limiter: WindowLimiter,
  ) {}

  async invite(principal: Principal | undefined, body: InviteMemberDto): Promise<InvitedMember> {
    const actor = memberActor(principal, this.config.isHosted);
    const role = body.role ?? 'member';
    if (!mayInvite(actor.role, role)) throw MembersError.notAllowed(`inviting ${aRole(role)}`);
    const token = newToken();
    const expiresAt = new Date(Date.now() + INVITE_LIFETIME_MS);
    const row = await this.source.transaction(async (m) => {
      await lockWorkspace(m, actor.tenantId);
      const existing: { id: string; status: string }[] = await m.query('SELECT id, status FROM control.memberships WHERE tenant_id = $1 AND email = $2', [
        actor.tenantId,
        body.email,
      ]);
      if (existing[0]?.status === 'active') throw MembersError.alreadyMember(body.email, existing[0].id);
      if (existing[0]) throw MembersError.invitePending(body.email, existing[0].id);
      const id = randomUUID();
      await m.query(
        `INSERT INTO control.memberships (id, tenant_id, account_id, email, role, status, created_at, invite_token_hash, invite_expires_at, invited_by, invited_at)
         VALUES ($1, $2, NULL, $3, $4, 'invited', now(), $5, $6, $7, now())`,
        [id, actor.tenantId, body.email, role, hashToken(token), expiresAt, actor.accountId],
      );
      return findMember(m, actor.tenantId, id);
    });
    this.changed(actor.tenantId);
    return { ...memberView(row), invite_email: await this.send(actor, row, token, expiresAt) };
  }

  /** A new link for a pending invitation; the previous one stops working. At most INVITE_RESEND_LIMIT per invitation. */
  async resend(principal: Principal | undefined, memberId: string): Promise<InvitedMember> {
    const actor = memberActor(principal, this.config.isHosted);
    // Each resend e-mails someone who has not answered yet: a few a day is a reminder, more is spam.
    const wait = await this.limiter.hit('invite-resend', `${actor.tenantId}:${memberId}`, INVITE_RESEND_LIMIT.hits, INVITE_RESEND_LIMIT.windowMs);
    if (wait) throw RequestError.rateLimited(`this invitation was sent again ${INVITE_RESEND_LIMIT.hits} times in the last hour; retry in ${wait} s`, wait);
    const token = newToken();
    const expiresAt = new Date(Date.now() + INVITE_LIFETIME_MS);
    const row = await this.source.transaction(async (m: EntityManager) => {
      await lockWorkspace(m, actor.tenantId);
      const target = await findMember(m, actor.tenantId, memberId);
      if (target.status !== 'invited') throw MembersError.notInvited(memberId);
      if (!mayInvite(actor.role, target.role)) throw MembersError.notAllowed(`inviting ${aRole(target.role)}`);
      await m.query('UPDATE control.memberships SET invite_token_hash = $2, invite_expires_at = $3, invited_by = $4, invited_at = now() WHERE id = $1', [
        target.id,
        hashToken(token),
        expiresAt,
        actor.accountId,
      ]);
      return findMember(m, actor.tenantId, target.id);
    });
    this.changed(actor.tenantId);
    return { ...memberView(row), invite_email: await this.send(actor, row, token, expiresAt) };
  }

  /**
   * GET /workspace/accept: the signed-in person whose address was invited
   * joins, and the workspace becomes the one their browser acts in. Not signed
   * in: to the sign-in page, which comes back here afterwards.
   */
  async accept(token: string, req: Request, res: Response): Promise<void> {
    if (!this.config.isHosted) throw MembersError.notHosted();
    const tokenHash = hashToken(token);
    const rows: { id: string; tenant_id: string; email: string; invite_expires_at: Date }[] = await this.source.query(
      "SELECT id, tenant_id, email, invite_expires_at FROM control.memberships WHERE invite_token_hash = $1 AND status = 'invited'",
      [tokenHash],
    );
    const invite = rows[0];
    if (!invite) throw MembersError.inviteNotFound();
    if (invite.invite_expires_at.getTime() <= Date.now()) throw MembersError.inviteExpired();
    const person = await this.sessions.current(req);
    if (!person) {
      res.redirect(303, `/auth/login?next=${encodeURIComponent(`/workspace/accept?token=${encodeURIComponent(token)}`)}`);
      return;
    }
    if (person.email.toLowerCase() !== invite.email) throw MembersError.inviteForAnotherAddress();
    const joined: unknown[] = await this.source.query(
      `WITH u AS (UPDATE control.memberships SET account_id = $2, status = 'active', joined_at = now(), invite_token_hash = NULL, invite_expires_at = NULL
                   WHERE id = $1 AND invite_token_hash = $3 AND status = 'invited' AND invite_expires_at > now() RETURNING id)
       SELECT id FROM u`,
      [invite.id, person.accountId, tokenHash],
    );
    if (joined.length === 0) throw MembersError.inviteNotFound();
    this.sessions.forgetAccount(person.accountId);
    this.changed(invite.tenant_id);
    await this.sessions.switchWorkspace(person, invite.tenant_id);
    res.redirect(303, this.config.afterLoginUrl);
  }

  /** The workspace's people changed: its open dashboards read the list again. */
  private changed(tenantId: string): void {
    this.events.publish({ tenantId, event: 'members_changed', data: {} });
  }

  /** Queues the invitation e-mail: the request that invites never waits on the provider, nor fails with it. */
  private async send(actor: MemberActor, member: MemberRow, token: string, expiresAt: Date): Promise<'queued' | 'skipped'> {
    if (!this.email.configured) return 'skipped';
    const [names]: { workspace: string; email: string; name: string | null }[] = await this.source.query(
      'SELECT t.name AS workspace, a.email, a.name FROM control.tenants t, control.accounts a WHERE t.id = $1 AND a.id = $2',
      [actor.tenantId, actor.accountId],
    );
    const link = this.publicUrl.to(`/workspace/accept?token=${token}`);
    this.queue.enqueue('invitation', inviteEmail({ to: member.email, role: member.role, workspace: names.workspace, inviter: names.name ?? names.email, link, expiresAt }));
    return 'queued';
  }
}

/** 32 random bytes, URL-safe: the secret of an invitation link. */
function newToken(): string {
  return randomBytes(32).toString('base64url');
}

function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
