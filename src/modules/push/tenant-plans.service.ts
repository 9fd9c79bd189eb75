import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';

export type Plan = 'free' | 'paid';

interface Entry {
  plan: Plan;
  contactEmail: string | null;
  expiresAt: number;
}

/**
 * A tenant's plan, which decides whether it gets push (spec §8: free tenants
 * get none). There is no billing yet: a hosted tenant's plan is the `plan`
 * column of control.tenants (new tenants `free`; the operator sets `paid`),
 * remembered for SERVICE_PLAN_CACHE_SECONDS. A self-hosted instance has no
 * plans and is treated as paid.
 */
@Injectable()
export class TenantPlans {
  private readonly cache = new Map<string, Entry>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {}

  /** The plan as last read, without any query (undefined until read once). */
  cached(tenantId: string): Plan | undefined {
    if (!this.config.isHosted) return 'paid';
    return this.cache.get(tenantId)?.plan;
  }

  /** The plan, read from the control plane when not remembered; `fresh` says a read happened. */
  async planOf(tenantId: string): Promise<{ plan: Plan; fresh: boolean }> {
    if (!this.config.isHosted) return { plan: 'paid', fresh: false };
    const entry = this.cache.get(tenantId);
    if (entry && entry.expiresAt > Date.now()) return { plan: entry.plan, fresh: false };
    return { plan: (await this.load(tenantId)).plan, fresh: true };
  }

  /** Where the tenant's account notices (budget e-mails) go; null when unknown. */
  async contactEmail(tenantId: string): Promise<string | null> {
    if (!this.config.isHosted) return this.config.adminEmail ?? null;
    return (await this.load(tenantId)).contactEmail;
  }

  private async load(tenantId: string): Promise<Entry> {
    const rows: { plan: string; contact_email: string | null }[] = await this.source.query('SELECT plan, contact_email FROM control.tenants WHERE id = $1', [tenantId]);
    const entry: Entry = {
      plan: rows[0]?.plan === 'paid' ? 'paid' : 'free',
      contactEmail: rows[0]?.contact_email ?? null,
      expiresAt: Date.now() + this.config.planCacheSeconds * 1000,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tenantId, entry);
    return entry;
  }
}
