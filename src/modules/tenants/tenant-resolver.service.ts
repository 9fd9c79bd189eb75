import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenantContext, TenantDb } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestError } from '../../common/errors/request-error';
import { AuthFailureLimiter } from '../../common/rate-limit/auth-failure-limiter';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { ApiTokenScope } from './api-token.entity';
import { bearerToken, hashApiToken, TOKEN_PREFIX, tokenShape } from './api-token.util';
import { localTenant } from './local-tenant';
import { tenantContextOf, TenantLocation } from './tenant-context.util';
import { TokenUsage } from './token-usage.service';
import { TurnBatches } from '../../common/lifecycle/turn-batches';

/** What Baton's authorization server issues: 256 random bits in base64url. */
const OAUTH_ACCESS_TOKEN = /^[A-Za-z0-9_-]{43}$/;

type TokenKind = 'api' | 'oauth';

/** The token a request presented: what it may do, and who made it. */
export interface TokenAccess {
  kind: TokenKind;
  /** The API token's id (null for an OAuth access token, which has no row of its own there). */
  tokenId: string | null;
  /** An OAuth access token (scope `mcp`) may do everything its workspace may. */
  scope: ApiTokenScope;
  /** The account that created the API token; null for an operator's token and for OAuth access tokens. */
  createdBy: string | null;
}

/** Who a request is: its tenant and, when hosted, the token it presented. */
export interface Credential {
  tenant: TenantContext;
  token?: TokenAccess;
}

interface TokenRow extends TenantLocation {
  /** When the token expires; null when it does not. */
  expires_at?: Date | null;
  /** API tokens only. */
  token_id?: string;
  scope?: ApiTokenScope;
  created_by?: string | null;
}

interface CacheEntry extends Required<Credential> {
  expiresAt: number;
}

const MAX_CACHED_TOKENS = 10_000;
/** Refused token hashes remembered at once; the least recently refused is forgotten first. */
const MAX_REFUSED_TOKENS = 10_000;

/**
 * Finds the tenant of a request. Self-hosted: always the local tenant. Hosted:
 * the tenant of the bearer token, looked up by the token's SHA-256. A lookup's
 * answer is remembered for SERVICE_TOKEN_CACHE_SECONDS, a resolved token and a
 * refused one alike, so a busy client, or one repeating a wrong token, costs
 * one control-plane query per few seconds, not one per request. A revocation
 * or a new token through this process takes effect at once, on other processes
 * within that time. Every refused credential a client presents is counted by
 * the AuthFailureLimiter, which turns the refusal into a 429 past its limit.
 *
 * API tokens carry a checksum (a mistyped one costs no lookup), a scope
 * (`full` or `read`), an expiry and their creator; the guard turns those into
 * the request's principal.
 *
 * A bearer that is not an API token may be an OAuth access token issued by
 * Baton's authorization server (src/modules/oauth-server): looked up by its
 * SHA-256 too, and taken only for Baton's MCP resource (its audience), before
 * it expires, while it is not revoked. It is remembered no longer than it lives.
 */
@Injectable()
export class TenantResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /** Hash of a refused token -> when that refusal is forgotten, in least-recently-refused order. */
  private readonly refused = new Map<string, number>();
  /** Lookups under way, by token hash (as many as requests in flight at most). */
  private readonly lookups = new Map<string, Promise<TokenRow | undefined>>();
  /** API-token hashes asked for in one turn of the event loop, looked up together at its end. */
  private readonly apiTokenLookups = new TurnBatches<undefined, string, string, TokenRow>((_none, hashes) => this.lookUpApiTokens([...hashes.keys()]));
  private readonly local: TenantContext;
  /** The audience an OAuth access token must have: Baton's MCP resource. */
  private readonly mcpResource: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly limiter: AuthFailureLimiter,
    private readonly usage: TokenUsage,
    db: TenantDb,
  ) {
    this.local = localTenant(config);
    // A tenant moved to another server (`npm run tenant:move`): its next request looks it up afresh.
    db.moves.onMoved((tenantId) => this.forgetTenant(tenantId));
    this.mcpResource = `${config.baseUrl.replace(/\/+$/, '')}/mcp`;
  }

  /**
   * The tenant of an `Authorization` header presented by `client` (the
   * request's address as Express sees it; left out only where no network
   * client is involved, and then counted under one shared name). Throws 401
   * when the credential is missing or refused, 429 when the client has
   * presented too many refused credentials lately and this one is refused too.
   */
  async resolve(authorization: string | string[] | undefined, client?: string): Promise<TenantContext> {
    return (await this.authenticate(authorization, client)).tenant;
  }

  /**
   * As `resolve`, with the token that was presented. An API token in the
   * current format whose checksum is wrong (mistyped, cut short) is refused
   * without a lookup; API tokens issued before the checksum are looked up as
   * before. An expired token is refused; an API token's use is noted for its
   * last_used_at. The client may be given as a function: the address is then
   * worked out only for a refusal (Express reads it from the socket and the
   * trusted proxies' headers, work an accepted request has no use for).
   */
  async authenticate(authorization: string | string[] | undefined, clientOf?: string | (() => string | undefined)): Promise<Credential> {
    if (!this.config.isHosted) return { tenant: this.local };
    const address = () => (typeof clientOf === 'function' ? clientOf() : clientOf);
    const token = bearerToken(authorization);
    // No credential presented: nothing guessed and nothing looked up, so nothing counted.
    if (!token) throw RequestError.unauthorized();
    const kind: TokenKind | undefined = token.startsWith(TOKEN_PREFIX) ? 'api' : OAUTH_ACCESS_TOKEN.test(token) ? 'oauth' : undefined;
    const shape = kind === 'api' ? tokenShape(token) : undefined;
    if (!kind || shape === 'malformed' || shape === 'bad-checksum') {
      const detail = !kind
        ? 'invalid token: Baton API tokens begin with sk_service_, and OAuth access tokens come from its /oauth/token'
        : shape === 'bad-checksum'
          ? 'invalid API token: its checksum does not match (mistyped or cut short?)'
          : 'invalid API token: not the shape of a Baton token';
      throw await this.limiter.refuse(address(), RequestError.unauthorized(detail), 'malformed');
    }
    const hash = hashApiToken(token);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) {
      if (cached.token.tokenId) this.usage.touch(cached.token.tokenId);
      return cached;
    }
    if (this.wasRefused(hash)) throw await this.limiter.refuse(address(), invalidToken(kind), 'unknown');

    const row = await this.lookup(hash, kind);
    const expired = row?.expires_at ? new Date(row.expires_at).getTime() <= Date.now() : false;
    if (!row || expired) {
      this.cache.delete(hash);
      this.rememberRefused(hash);
      const refusal = expired && kind === 'api' ? RequestError.unauthorized('this API token has expired: create a new one') : invalidToken(kind);
      throw await this.limiter.refuse(address(), refusal, expired ? 'expired' : 'unknown');
    }
    const until = Date.now() + this.config.tokenCacheSeconds * 1000;
    const entry: CacheEntry = {
      tenant: tenantContextOf(row),
      token: { kind, tokenId: row.token_id ?? null, scope: row.scope ?? 'full', createdBy: row.created_by ?? null },
      expiresAt: row.expires_at ? Math.min(until, new Date(row.expires_at).getTime()) : until,
    };
    if (this.config.tokenCacheSeconds > 0) {
      if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.clear();
      this.cache.set(hash, entry);
    }
    if (row.token_id) this.usage.touch(row.token_id);
    return entry;
  }

  /** Drops what is remembered about a tenant (its storage changed, or it was removed). */
  forgetTenant(tenantId: string) {
    for (const [hash, entry] of this.cache) if (entry.tenant.tenantId === tenantId) this.cache.delete(hash);
  }

  /** Drops what is remembered about one token (it was revoked, or issued and may have been refused before). */
  forgetToken(tokenHash: string) {
    this.cache.delete(tokenHash);
    this.refused.delete(tokenHash);
    this.lookups.delete(tokenHash);
  }

  /**
   * The token's tenant from the control plane. Requests carrying the same
   * token while its lookup runs wait for that one query instead of sending
   * their own, so a burst of one wrong (or valid) token costs one query.
   */
  private lookup(hash: string, kind: TokenKind): Promise<TokenRow | undefined> {
    const running = this.lookups.get(hash);
    if (running) return running;
    const query =
      kind === 'api'
        ? this.lookupApiToken(hash)
        : this.source
            .query(
              `SELECT t.id, t.schema_name, t.role_name, t.db_url_sealed, t.db_server, p.expires_at
                 FROM control.oauth_payloads p JOIN control.tenants t ON t.id = p.tenant_id
                WHERE p.model = 'AccessToken' AND p.id_hash = $1 AND p.audience = $2 AND p.expires_at > now() AND t.status = 'active'
                  AND EXISTS (SELECT 1 FROM control.memberships m WHERE m.tenant_id = p.tenant_id AND m.account_id::text = p.account_id AND m.status = 'active')`,
              [hash, this.mcpResource],
            )
            .then((rows: TokenRow[]) => rows[0]);
    const lookup = query.finally(() => {
      if (this.lookups.get(hash) === lookup) this.lookups.delete(hash);
    });
    this.lookups.set(hash, lookup);
    return lookup;
  }

  /**
   * An API token's row. The tokens asked for in the same turn of the event
   * loop (a burst of new clients, or every workspace's first request after a
   * restart) are looked up in one query at the turn's end: one pool checkout
   * and one round trip for all of them instead of one each.
   */
  private lookupApiToken(hash: string): Promise<TokenRow | undefined> {
    // The same hash twice in one batch (its lookup was forgotten, `forgetToken`, and asked for again) is looked up once.
    return this.apiTokenLookups.ask('api-tokens', undefined, hash, hash);
  }

  private async lookUpApiTokens(hashes: string[]): Promise<Map<string, TokenRow>> {
    const found: (TokenRow & { token_hash: string })[] = await this.source.query(
      `SELECT k.token_hash, t.id, t.schema_name, t.role_name, t.db_url_sealed, t.db_server, k.id AS token_id, k.scope, k.created_by, k.expires_at
         FROM control.api_tokens k JOIN control.tenants t ON t.id = k.tenant_id
        WHERE k.token_hash = ANY($1) AND k.revoked_at IS NULL AND t.status = 'active'`,
      [hashes],
    );
    return new Map(found.map(({ token_hash, ...row }) => [token_hash, row]));
  }

  private wasRefused(hash: string): boolean {
    const until = this.refused.get(hash);
    if (until === undefined) return false;
    this.refused.delete(hash);
    if (until <= Date.now()) return false;
    this.refused.set(hash, until);
    return true;
  }

  private rememberRefused(hash: string) {
    if (this.config.tokenCacheSeconds <= 0) return;
    this.refused.delete(hash);
    if (this.refused.size >= MAX_REFUSED_TOKENS) this.refused.delete(this.refused.keys().next().value!);
    this.refused.set(hash, Date.now() + this.config.tokenCacheSeconds * 1000);
  }
}

function invalidToken(kind: TokenKind) {
  return RequestError.unauthorized(kind === 'api' ? 'invalid or revoked API token' : 'invalid, expired or revoked access token');
}
