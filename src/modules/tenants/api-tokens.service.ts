import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { ApiTokenRecord, ApiTokenScope } from './api-token.entity';
import { generateApiToken, hashApiToken, TOKEN_PREFIX_SHOWN } from './api-token.util';
import { TenantResolver } from './tenant-resolver.service';

export interface IssueTokenOptions {
  scope?: ApiTokenScope;
  expiresAt?: Date | null;
  /** The account it is made for or by; none for an operator's token. */
  createdBy?: string | null;
}

/** A token as its workspace lists it: never its value nor its hash. */
export interface ApiTokenView {
  id: string;
  label: string;
  prefix: string;
  created_at: string;
  /** The creating account's e-mail; null for an operator's token or a creator since deleted. */
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  scope: ApiTokenScope;
  revoked: boolean;
}

/** The label of tokens issued to OAuth clients, which `purgeOrphaned` may remove. */
export const OAUTH_TOKEN_LABEL = 'oauth';
/** An orphaned OAuth token is purged only once it is older than this. */
const ORPHAN_MIN_AGE_MS = 24 * 60 * 60 * 1000;

type ListedRow = Omit<ApiTokenRecord, 'token_hash' | 'created_by' | 'tenant_id'> & { creator_email: string | null };

/** A hosted tenant's API tokens: issued once in clear, stored as a hash, revoked for good. */
@Injectable()
export class ApiTokens {
  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly resolver: TenantResolver,
    private readonly events: RealtimeEvents,
  ) {}

  /** Issues a new token for a tenant. The token is returned here and never again. */
  async createToken(tenantId: string, name: string, options: IssueTokenOptions = {}): Promise<string> {
    return (await this.issue(tenantId, name, options)).token;
  }

  /** Issues a new token and returns it with its listing; the value is shown only here. */
  async issue(tenantId: string, label: string, options: IssueTokenOptions = {}): Promise<{ token: string; view: ApiTokenView }> {
    const token = generateApiToken();
    const tokenHash = hashApiToken(token);
    const record: ApiTokenRecord = {
      id: randomUUID(),
      tenant_id: tenantId,
      name: label,
      token_hash: tokenHash,
      token_prefix: token.slice(0, TOKEN_PREFIX_SHOWN),
      created_at: new Date(),
      revoked_at: null,
      created_by: options.createdBy ?? null,
      last_used_at: null,
      expires_at: options.expiresAt ?? null,
      scope: options.scope ?? 'full',
    };
    await this.source.getRepository(ApiTokenRecord).insert(record);
    // A refusal of this value remembered before it existed must not outlive its creation here.
    this.resolver.forgetToken(tokenHash);
    const creator = record.created_by ? await this.emailOf(record.created_by) : null;
    return { token, view: viewOf({ ...record, creator_email: creator }) };
  }

  /** The tenant's tokens, newest first, revoked ones included. */
  async list(tenantId: string): Promise<ApiTokenView[]> {
    const rows: ListedRow[] = await this.source.query(
      `SELECT k.id, k.name, k.token_prefix, k.created_at, k.revoked_at, k.last_used_at, k.expires_at, k.scope, a.email AS creator_email
         FROM control.api_tokens k LEFT JOIN control.accounts a ON a.id = k.created_by
        WHERE k.tenant_id = $1
        ORDER BY k.created_at DESC, k.id`,
      [tenantId],
    );
    return rows.map(viewOf);
  }

  /** The token's creator, or undefined when the tenant has no such token. */
  async creatorOf(tenantId: string, tokenId: string): Promise<{ createdBy: string | null } | undefined> {
    const rows: { created_by: string | null }[] = await this.source.query('SELECT created_by FROM control.api_tokens WHERE id = $1 AND tenant_id = $2', [tokenId, tenantId]);
    return rows[0] ? { createdBy: rows[0].created_by } : undefined;
  }

  /**
   * Revokes one of the tenant's tokens by id: at once on this instance, within
   * SERVICE_TOKEN_CACHE_SECONDS on the others. False when the tenant has no
   * such token; revoking a revoked token again changes nothing and is true.
   */
  async revokeById(tenantId: string, tokenId: string): Promise<boolean> {
    const [rows]: [{ token_hash: string }[], number] = await this.source.query(
      `UPDATE control.api_tokens SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND tenant_id = $2 RETURNING token_hash`,
      [tokenId, tenantId],
    );
    for (const row of rows) this.resolver.forgetToken(row.token_hash);
    if (rows.length > 0) this.changed(tenantId);
    return rows.length > 0;
  }

  /** Revokes a token by its value; later requests with it answer 401. */
  async revokeToken(token: string): Promise<boolean> {
    const hash = hashApiToken(token);
    const result = await this.source.getRepository(ApiTokenRecord).update({ token_hash: hash, revoked_at: IsNull() }, { revoked_at: new Date() });
    this.resolver.forgetToken(hash);
    return (result.affected ?? 0) > 0;
  }

  /**
   * Deletes the tenant's orphaned OAuth tokens: labelled exactly `oauth`,
   * created more than 24 hours ago, and whose creator is no longer an active
   * member of the tenant (or who have no creator), revoked or not. Returns
   * how many went.
   */
  async purgeOrphaned(tenantId: string): Promise<number> {
    const [rows]: [{ token_hash: string }[], number] = await this.source.query(
      `DELETE FROM control.api_tokens k
        WHERE k.tenant_id = $1 AND k.name = $2 AND k.created_at < $3
          AND (k.created_by IS NULL OR NOT EXISTS (
                SELECT 1 FROM control.memberships m WHERE m.tenant_id = k.tenant_id AND m.account_id = k.created_by AND m.status = 'active'))
        RETURNING k.token_hash`,
      [tenantId, OAUTH_TOKEN_LABEL, new Date(Date.now() - ORPHAN_MIN_AGE_MS)],
    );
    for (const row of rows) this.resolver.forgetToken(row.token_hash);
    if (rows.length > 0) this.changed(tenantId);
    return rows.length;
  }

  /**
   * The workspace's token list changed: its open dashboards read it again (the event carries
   * nothing of a token). Revocations and purges say so themselves; a token issued says so where it
   * is issued for a person (not while a workspace is being provisioned, when no one watches it).
   */
  changed(tenantId: string): void {
    this.events.publish({ tenantId, event: 'tokens_changed', data: {} });
  }

  private async emailOf(accountId: string): Promise<string | null> {
    const rows: { email: string }[] = await this.source.query('SELECT email FROM control.accounts WHERE id = $1', [accountId]);
    return rows[0]?.email ?? null;
  }
}

function viewOf(row: ListedRow): ApiTokenView {
  return {
    id: row.id,
    label: row.name,
    prefix: row.token_prefix,
    created_at: row.created_at.toISOString(),
    created_by: row.creator_email,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    scope: row.scope,
    revoked: row.revoked_at !== null,
  };
}
