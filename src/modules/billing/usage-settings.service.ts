import { Inject, Injectable } from '@nestjs/common';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PushService } from '../push/push.service';
import { TenantPlans } from '../push/tenant-plans.service';
import { UsageMeter } from './usage-meter.service';
import { PushBudgetView, UsageSettings } from './usage-settings.view';
import { UpdateUsageSettingsDto } from './dto/update-usage-settings.dto';
import { UsageSettingsRow } from './usage-settings.entity';

const SINGLETON = 'singleton';

/** The workspace's overage caps: no overage until a cap is set; a PATCH changes only the fields it names. */
@Injectable()
export class UsageSettingsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly plans: TenantPlans,
    private readonly meter: UsageMeter,
    private readonly push: PushService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async get(): Promise<UsageSettings> {
    const row = await this.db.read((m) => m.findOneBy(UsageSettingsRow, { id: SINGLETON }));
    return this.view(row);
  }

  async update(input: UpdateUsageSettingsDto): Promise<UsageSettings> {
    const row = await this.db.transaction(async (m) => {
      const current = await m.findOneBy(UsageSettingsRow, { id: SINGLETON });
      const next = {
        id: SINGLETON,
        compute_overage_cap_usd: input.compute_overage_cap_usd !== undefined ? input.compute_overage_cap_usd : (current?.compute_overage_cap_usd ?? null),
        storage_overage_cap_gb: input.storage_overage_cap_gb !== undefined ? input.storage_overage_cap_gb : (current?.storage_overage_cap_gb ?? null),
        updated_at: this.clock.now(),
      };
      await m.upsert(UsageSettingsRow, next, ['id']);
      return next;
    });
    return this.view(row);
  }

  private async view(row: UsageSettingsRow | null): Promise<UsageSettings> {
    const tenantId = currentTenant().tenantId;
    const { plan } = await this.plans.planOf(tenantId);
    const caps = { compute_overage_cap_usd: row?.compute_overage_cap_usd ?? null, storage_overage_cap_gb: row?.storage_overage_cap_gb ?? null };
    const hosted = this.config.isHosted;
    return {
      plan,
      ...caps,
      updated_at: row ? row.updated_at.toISOString() : null,
      usage: await this.meter.measure(plan, caps),
      push_budget: hosted && plan === 'paid' ? await this.budget(tenantId) : null,
      upgrade_url: hosted && plan === 'free' && (this.config.billingPaymentLink || (this.config.billingSecretKey && this.config.billingPriceId)) ? '/checkout' : null,
    };
  }

  private async budget(tenantId: string): Promise<PushBudgetView> {
    const status = await this.push.budgetStatus(tenantId);
    const [year, month] = status.month.split('-').map(Number);
    return { used: status.count, limit: status.thresholds.disable, tier: status.tier, month: status.month, resets_at: new Date(Date.UTC(year, month, 1)).toISOString() };
  }
}
