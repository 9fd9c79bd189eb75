import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenantContext } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestError } from '../../common/errors/request-error';
import { AuthFailureLimiter } from '../../common/rate-limit/auth-failure-limiter';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { bearerToken, hashApiToken, TOKEN_PREFIX } from './api-token.util';
import { localTenant } from './local-tenant';
import { TenantRecord } from './tenant.entity';

interface CacheEntry {
  tenant: TenantContext;
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
 */
@Injectable()
export class TenantResolver {
  private readonly cache = new Map<string, CacheEntry>();
  /** Hash of a refused token -> when that refusal is forgotten, in least-recently-refused order. */
  private readonly refused = new Map<string, number>();
  /** Lookups under way, by token hash (as many as requests in flight at most). */
  private readonly lookups = new Map<string, Promise<TenantRecord | undefined>>();
  private readonly local: TenantContext;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly limiter: AuthFailureLimiter,
  ) {
    this.local = localTenant(config);
  }

  /**
   * The tenant of an `Authorization` header presented by `client` (the
   * request's address as Express sees it; left out only where no network
   * client is involved, and then counted under one shared name). Throws 401
   * when the credential is missing or refused, 429 when the client has
   * presented too many refused credentials lately and this one is refused too.
   */
  async resolve(authorization: string | string[] | undefined, client?: string): Promise<TenantContext> {
    if (!this.config.isHosted) return this.local;
    const token = bearerToken(authorization);
    // No credential presented: nothing guessed and nothing looked up, so nothing counted.
    if (!token) throw RequestError.unauthorized();
    if (!token.startsWith(TOKEN_PREFIX)) {
      throw await this.limiter.refuse(client, RequestError.unauthorized('invalid API token: Baton tokens begin with sk_service_'), 'malformed');
    }
    const hash = hashApiToken(token);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.tenant;
    if (this.wasRefused(hash)) throw await this.limiter.refuse(client, invalidToken(), 'unknown');

    const row = await this.lookup(hash);
    if (!row) {
      this.cache.delete(hash);
      this.rememberRefused(hash);
      throw await this.limiter.refuse(client, invalidToken(), 'unknown');
    }
    const tenant: TenantContext = {
      tenantId: row.id,
      schema: row.schema_name,
      role: row.role_name,
      byodbUrlEncrypted: row.db_url_sealed,
    };
    if (this.config.tokenCacheSeconds > 0) {
      if (this.cache.size >= MAX_CACHED_TOKENS) this.cache.clear();
      this.cache.set(hash, { tenant, expiresAt: Date.now() + this.config.tokenCacheSeconds * 1000 });
    }
    return tenant;
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
  private lookup(hash: string): Promise<TenantRecord | undefined> {
    const running = this.lookups.get(hash);
    if (running) return running;
    const lookup = this.source
      .query(
        `SELECT t.id, t.schema_name, t.role_name, t.db_url_sealed
           FROM control.api_tokens k JOIN control.tenants t ON t.id = k.tenant_id
          WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND t.status = 'active'`,
        [hash],
      )
      .then((rows: TenantRecord[]) => rows[0])
      .finally(() => {
        if (this.lookups.get(hash) === lookup) this.lookups.delete(hash);
      });
    this.lookups.set(hash, lookup);
    return lookup;
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

function invalidToken() {
  return RequestError.unauthorized('invalid or revoked API token');
}
