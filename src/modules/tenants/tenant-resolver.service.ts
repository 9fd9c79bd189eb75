import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenantContext } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestError } from '../../common/errors/request-error';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { bearerToken, hashApiToken, TOKEN_PREFIX } from './api-token.util';
import { localTenant } from './local-tenant';
import { TenantRecord } from './tenant.entity';

interface CacheEntry {
  tenant: TenantContext;
  expiresAt: number;
}

const MAX_CACHED_TOKENS = 10_000;

/**
 * Finds the tenant of a request. Self-hosted: always the local tenant. Hosted:
 * the tenant of the bearer token, looked up by the token's SHA-256. A resolved
 * token is remembered for SERVICE_TOKEN_CACHE_SECONDS, so a busy client costs
 * one control-plane query per few seconds, not one per request; a revocation
 * through this process takes effect at once, on other processes within that time.
 */
@Injectable()
export class TenantResolver {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly local: TenantContext;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {
    this.local = localTenant(config);
  }

  async resolve(authorization: string | string[] | undefined): Promise<TenantContext> {
    if (!this.config.isHosted) return this.local;
    const token = bearerToken(authorization);
    if (!token) throw RequestError.unauthorized();
    if (!token.startsWith(TOKEN_PREFIX)) throw RequestError.unauthorized('invalid API token: Baton tokens begin with sk_service_');
    const hash = hashApiToken(token);
    const cached = this.cache.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.tenant;

    const rows: TenantRecord[] = await this.source.query(
      `SELECT t.id, t.schema_name, t.role_name, t.db_url_sealed
         FROM control.api_tokens k JOIN control.tenants t ON t.id = k.tenant_id
        WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND t.status = 'active'`,
      [hash],
    );
    const row = rows[0];
    if (!row) {
      this.cache.delete(hash);
      throw RequestError.unauthorized('invalid or revoked API token');
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

  /** Drops one token (it was revoked). */
  forgetToken(tokenHash: string) {
    this.cache.delete(tokenHash);
  }
}
