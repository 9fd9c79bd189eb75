import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { allowanceOf, Plan, PlanAllowance, planNamed, SELF_HOSTED_PLAN } from '../../common/plans';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';

export type { Plan };

interface Entry {
  plan: Plan;
  contactEmail: string | null;
  expiresAt: number;
}

/**
 * A tenant's plan, which decides what it is allowed (src/common/plans.ts:
 * push, queued assistant tasks, executor limits). A hosted tenant's plan is the `plan` column of control.tenants
 * (new tenants `free`; billing webhooks and the operator move it),
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
    if (!this.config.isHosted) return SELF_HOSTED_PLAN;
    return this.cache.get(tenantId)?.plan;
  }

  /** The plan, read from the control plane when not remembered; `fresh` says a read happened. */
  async planOf(tenantId: string): Promise<{ plan: Plan; fresh: boolean }> {
    if (!this.config.isHosted) return { plan: SELF_HOSTED_PLAN, fresh: false };
    const entry = this.cache.get(tenantId);
    if (entry && entry.expiresAt > Date.now()) return { plan: entry.plan, fresh: false };
    return { plan: (await this.load(tenantId)).plan, fresh: true };
  }

  /** What the tenant's plan allows (read like planOf). */
  async allowanceOf(tenantId: string): Promise<Readonly<PlanAllowance>> {
    return allowanceOf((await this.planOf(tenantId)).plan);
  }

  /** Drops what this instance remembers of the tenant's plan (it just changed); other instances read it again within SERVICE_PLAN_CACHE_SECONDS. */
  forget(tenantId: string): void {
    this.cache.delete(tenantId);
  }

  /** Where the tenant's account notices (budget e-mails) go; null when unknown. */
  async contactEmail(tenantId: string): Promise<string | null> {
    if (!this.config.isHosted) return this.config.adminEmail ?? null;
    return (await this.load(tenantId)).contactEmail;
  }

  private async load(tenantId: string): Promise<Entry> {
    const rows: { plan: string; contact_email: string | null }[] = await this.source.query('SELECT plan, contact_email FROM control.tenants WHERE id = $1', [tenantId]);
    const entry: Entry = {
      plan: planNamed(rows[0]?.plan),
      contactEmail: rows[0]?.contact_email ?? null,
      expiresAt: Date.now() + this.config.planCacheSeconds * 1000,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(tenantId, entry);
    return entry;
  }
}
