import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { TenantContext, TenantDb } from '../../../libs/tenancy';
import { MemberRole } from '../../common/auth/principal';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { tenantContextOf, TenantLocation } from '../tenants/tenant-context.util';
import { clearSessionCookie, sessionCookieName, sessionCookieOptions, sessionSecretOf } from './session-cookie';

/** A person signed in by cookie, in their current workspace (if they still belong to it). */
export interface SignedInPerson {
  accountId: string;
  email: string;
  name: string | null;
  sessionId: string;
  /** The current workspace, or null when the person belongs to none now. */
  tenantId: string | null;
  role: MemberRole | null;
  /** Where the current workspace's data lives (null with tenantId). */
  tenant: TenantContext | null;
}

interface SessionOwner {
  account_id: string;
  tenant_id: string | null;
}

export interface WebSessionView {
  id: string;
  provider: string;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  current: boolean;
}

interface SessionRow extends Partial<TenantLocation> {
  session_id: string;
  account_id: string;
  email: string;
  name: string | null;
  tenant_id: string | null;
  member_role: MemberRole | null;
  last_seen_at: Date;
}

const MAX_CACHED = 10_000;
/** last_seen_at is written at most this often per session. */
const SEEN_EVERY_MS = 5 * 60_000;

/**
 * Server-side web sessions. The cookie carries a random secret; only its
 * SHA-256 is stored, so the table alone signs no one in. Every sign-in starts
 * a new session (a session id planted before sign-in is worth nothing), and
 * ends the one the browser held. A lookup is remembered for
 * SERVICE_TOKEN_CACHE_SECONDS like a token's: a revocation here takes effect
 * at once, on other instances within that time. The person's membership of
 * the current workspace is read with the session, so a member removed from it
 * stops reaching it on the same terms.
 */
@Injectable()
export class WebSessions {
  private readonly cache = new Map<string, { person: SignedInPerson | undefined; expiresAt: number }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly events: RealtimeEvents,
    db: TenantDb,
  ) {
    // A workspace moved to another server (`npm run tenant:move`): sessions in it are looked up afresh.
    db.moves.onMoved((tenantId) => this.forget((person) => person.tenantId === tenantId));
  }

  /** Starts a session for `accountId` in `tenantId`, sets its cookie and ends the one the browser held. */
  async start(req: Request, res: Response, accountId: string, tenantId: string | null, provider: string): Promise<string> {
    await this.end(req);
    const secret = randomBytes(32).toString('base64url');
    const id = randomUUID();
    const now = new Date();
    const expires = new Date(now.getTime() + this.config.webSessionDays * 86_400_000);
    const userAgent = String(req.headers['user-agent'] ?? '').slice(0, 300) || null;
    await this.source.query(
      `INSERT INTO control.web_sessions (id, secret_hash, account_id, tenant_id, provider, user_agent, created_at, last_seen_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8)`,
      [id, hashSecret(secret), accountId, tenantId, provider, userAgent, now, expires],
    );
    res.cookie(sessionCookieName(this.config), secret, sessionCookieOptions(this.config, expires));
    this.announce([{ account_id: accountId, tenant_id: tenantId }]);
    return id;
  }

  /** The person the request's cookie signs in, if any (hosted only). */
  async current(req: Request): Promise<SignedInPerson | undefined> {
    if (!this.config.isHosted) return undefined;
    const secret = sessionSecretOf(req, this.config);
    if (!secret) return undefined;
    const key = hashSecret(secret);
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > Date.now()) return cached.person;
    const person = await this.lookup(key);
    if (this.config.tokenCacheSeconds > 0) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(key, { person, expiresAt: Date.now() + this.config.tokenCacheSeconds * 1000 });
    }
    return person;
  }

  /** Signs the browser out: its session is revoked and the cookie cleared. */
  async signOut(req: Request, res: Response): Promise<void> {
    await this.end(req);
    clearSessionCookie(res, this.config);
  }

  /** The account's live web sessions, newest first. */
  async list(accountId: string, currentSessionId?: string): Promise<WebSessionView[]> {
    const rows: { id: string; provider: string; user_agent: string | null; created_at: Date; last_seen_at: Date; expires_at: Date }[] = await this.source.query(
      `SELECT id, provider, user_agent, created_at, last_seen_at, expires_at FROM control.web_sessions
        WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC`,
      [accountId],
    );
    return rows.map((r) => ({
      id: r.id,
      provider: r.provider,
      user_agent: r.user_agent,
      created_at: r.created_at.toISOString(),
      last_seen_at: r.last_seen_at.toISOString(),
      expires_at: r.expires_at.toISOString(),
      current: r.id === currentSessionId,
    }));
  }

  /** Revokes one of the account's sessions; false when it has no such live session. */
  async revoke(accountId: string, sessionId: string): Promise<boolean> {
    const rows: SessionOwner[] = await this.source.query(
      `WITH u AS (UPDATE control.web_sessions SET revoked_at = now() WHERE id = $1 AND account_id = $2 AND revoked_at IS NULL RETURNING account_id, tenant_id)
       SELECT account_id, tenant_id FROM u`,
      [sessionId, accountId],
    );
    this.forget((person) => person.sessionId === sessionId);
    this.announce(rows);
    return rows.length > 0;
  }

  /** Makes `tenantId` the session's current workspace; false when the account is not an active member of it. */
  async switchWorkspace(person: SignedInPerson, tenantId: string): Promise<boolean> {
    const rows: unknown[] = await this.source.query(
      `WITH u AS (UPDATE control.web_sessions s SET tenant_id = $2 WHERE s.id = $1
          AND EXISTS (SELECT 1 FROM control.memberships m WHERE m.tenant_id = $2 AND m.account_id = s.account_id AND m.status = 'active')
       RETURNING s.id) SELECT id FROM u`,
      [person.sessionId, tenantId],
    );
    this.forget((p) => p.sessionId === person.sessionId);
    return rows.length > 0;
  }

  /** Drops what is remembered about an account's sessions (its memberships or the account changed). */
  forgetAccount(accountId: string): void {
    this.forget((person) => person.accountId === accountId);
  }

  private forget(matches: (person: SignedInPerson) => boolean): void {
    for (const [key, entry] of this.cache) if (!entry.person || matches(entry.person)) this.cache.delete(key);
  }

  private async end(req: Request): Promise<void> {
    const secret = sessionSecretOf(req, this.config);
    if (!secret) return;
    const key = hashSecret(secret);
    this.cache.delete(key);
    const rows: SessionOwner[] = await this.source.query(
      'WITH u AS (UPDATE control.web_sessions SET revoked_at = now() WHERE secret_hash = $1 AND revoked_at IS NULL RETURNING account_id, tenant_id) SELECT account_id, tenant_id FROM u',
      [key],
    );
    this.announce(rows);
  }

  /**
   * `web_sessions_changed` to the person's own open dashboards, so a sign-in or sign-out
   * elsewhere shows in their sessions list at once. It travels to other instances on the
   * channel of the session's workspace; a session in none is announced on this instance only.
   */
  private announce(rows: SessionOwner[]): void {
    for (const row of rows) {
      const event = { tenantId: row.tenant_id ?? '', accountId: row.account_id, event: 'web_sessions_changed' as const, data: {} };
      if (row.tenant_id) this.events.publish(event);
      else this.events.deliverLocal(event);
    }
  }

  private async lookup(secretHash: string): Promise<SignedInPerson | undefined> {
    const rows: SessionRow[] = await this.source.query(
      `SELECT s.id AS session_id, s.account_id, a.email, a.name, s.last_seen_at,
              t.id AS tenant_id, m.role AS member_role, t.id, t.schema_name, t.role_name, t.db_url_sealed, t.db_server
         FROM control.web_sessions s
         JOIN control.accounts a ON a.id = s.account_id
         LEFT JOIN control.memberships m ON m.tenant_id = s.tenant_id AND m.account_id = s.account_id AND m.status = 'active'
         LEFT JOIN control.tenants t ON t.id = m.tenant_id AND t.status = 'active'
        WHERE s.secret_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
      [secretHash],
    );
    const row = rows[0];
    if (!row) return undefined;
    if (Date.now() - row.last_seen_at.getTime() > SEEN_EVERY_MS) {
      void this.source.query('UPDATE control.web_sessions SET last_seen_at = now() WHERE id = $1', [row.session_id]).catch(() => undefined);
    }
    const inWorkspace = row.tenant_id !== null && row.schema_name !== undefined && row.schema_name !== null;
    return {
      accountId: row.account_id,
      email: row.email,
      name: row.name,
      sessionId: row.session_id,
      tenantId: inWorkspace ? row.tenant_id : null,
      role: inWorkspace ? row.member_role : null,
      tenant: inWorkspace ? tenantContextOf(row as TenantLocation) : null,
    };
  }
}

export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex');
}
