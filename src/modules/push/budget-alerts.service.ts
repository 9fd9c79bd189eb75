import { Inject, Injectable, Logger } from '@nestjs/common';
import { BudgetStatus, BudgetTier } from '../../../libs/pubsub';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { EmailQueue } from '../notifications/email-queue.service';
import { budgetAdminAlertEmail, budgetPausedEmail, budgetWarningEmail } from '../notifications/templates/budget.email';
import { NotificationsService } from '../notifications/notifications.service';
import { TenantPlans } from './tenant-plans.service';

export interface AlertRecord {
  tier: BudgetTier;
  at: string;
}

/**
 * The effects of crossing a push budget tier (spec §8). The budget decides
 * that a tier fires (once per tenant per calendar month, across instances);
 * this sends what it means: tier 1 a dashboard notice and an e-mail to the
 * tenant, tier 2 a hard-limit e-mail (and notice), tier 3 an alert to the
 * operator's SERVICE_ADMIN_NTFY_URL and ADMIN_EMAIL.
 */
@Injectable()
export class BudgetAlerts {
  private readonly logger = new Logger('push-budget');
  private readonly sent = new Map<string, AlertRecord[]>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeEvents,
    private readonly email: EmailQueue,
    private readonly notifications: NotificationsService,
    private readonly plans: TenantPlans,
  ) {}

  /** The alerts this instance sent for a tenant (diagnostics). */
  sentFor(tenantId: string): AlertRecord[] {
    return this.sent.get(tenantId) ?? [];
  }

  async fire(tenantId: string, tiers: BudgetTier[], status: BudgetStatus): Promise<void> {
    for (const tier of tiers) {
      this.sent.set(tenantId, [...this.sentFor(tenantId), { tier, at: new Date().toISOString() }].slice(-12));
      this.logger.warn({ msg: 'push budget tier reached', tenant_id: tenantId, tier, month: status.month, count: status.count });
      try {
        if (tier === 'warning') await this.warning(tenantId, status);
        else if (tier === 'disable') await this.disable(tenantId, status);
        else await this.adminAlert(tenantId, status);
      } catch (error) {
        this.logger.error({ msg: 'push budget alert failed', tenant_id: tenantId, tier, error: (error as Error).message });
      }
    }
  }

  private async warning(tenantId: string, status: BudgetStatus) {
    this.realtime.publish({ tenantId, event: 'push_budget_warning', data: { ...status } });
    const to = await this.plans.contactEmail(tenantId);
    if (to) this.email.enqueue('budget_warning', budgetWarningEmail(to, status));
  }

  private async disable(tenantId: string, status: BudgetStatus) {
    this.realtime.publish({ tenantId, event: 'push_budget_exhausted', data: { ...status } });
    const to = await this.plans.contactEmail(tenantId);
    if (to) this.email.enqueue('budget_paused', budgetPausedEmail(to, status));
  }

  private async adminAlert(tenantId: string, status: BudgetStatus) {
    const title = `Baton admin alert: push budget gate failed for tenant ${tenantId}`;
    const body = `Tenant ${tenantId} reached ${status.count} push commands in ${status.month}, past the admin threshold ${status.thresholds.admin_alert}: the pause at ${status.thresholds.disable} did not hold.`;
    if (this.config.adminNtfyUrl) {
      await this.notifications.postOperatorAlert(this.config.adminNtfyUrl, {
        title,
        body,
        event: 'push_budget_admin_alert',
        source: 'baton',
        tenant_id: tenantId,
        month: status.month,
        count: status.count,
      });
    }
    if (this.config.adminEmail) this.email.enqueue('budget_admin_alert', budgetAdminAlertEmail(this.config.adminEmail, tenantId, status));
  }
}
