import { Inject, Injectable, Optional } from '@nestjs/common';
import { Availability, BudgetStatus, ErrorMark, PublishStats } from '../../../libs/pubsub';
import { currentTenant } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BoardCacheFigures, BoardReadCache } from './board-read-cache.service';
import { AlertRecord, BudgetAlerts } from './budget-alerts.service';
import { DIAGNOSTICS_LAYERS, DiagnosticsLayers } from './diagnostics-layers';
import { PushError } from './push.errors';
import { PushService } from './push.service';
import { Plan, TenantPlans } from './tenant-plans.service';

export interface PubsubDiagnostics {
  /** Whether SERVICE_CACHE_URL is set (never its value). */
  cache_url_configured: boolean;
  availability: Availability;
  /** Whether this tenant's waiters are woken by push right now (else they poll). */
  push_live: boolean;
  connection_generation: number;
  transitions: { from: Availability; to: Availability; at: string; reason: string }[];
  publish: PublishStats;
  polling: { interval_ms: number; safety_interval_ms: number; max_wait_seconds: number };
  budget: (BudgetStatus & { plan: Plan | 'unknown'; enforced: true; alerts_sent: AlertRecord[] }) | { plan: 'paid'; enforced: false; tier: 'unlimited' };
  cache: {
    read_through: { implemented: false };
    /** Figures only while this tenant's board reads are served from the cache (see BoardReadCache). */
    board_read: { live: false } | ({ live: true } & BoardCacheFigures);
  };
  last_error_class: string | null;
  last_error_age_seconds: number | null;
  last_construction_error_class: string | null;
  last_construction_error_age_seconds: number | null;
  last_connection_error_class: string | null;
  last_connection_error_age_seconds: number | null;
}

/**
 * GET /tunnel/diagnostics/{tenant_id}: read from in-process counters only,
 * never a round trip to Redis. A tenant reads its own diagnostics; any other
 * tenant id answers 404, the same as one that does not exist.
 */
@Injectable()
export class PushDiagnosticsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly push: PushService,
    private readonly plans: TenantPlans,
    private readonly alerts: BudgetAlerts,
    private readonly board: BoardReadCache,
    @Optional() @Inject(DIAGNOSTICS_LAYERS) private readonly more?: DiagnosticsLayers,
  ) {}

  diagnostics(tenantId: string): { tenant_id: string; generated_at: string; pubsub: PubsubDiagnostics } & Record<string, unknown> {
    if (currentTenant().tenantId !== tenantId.toLowerCase()) throw PushError.tenantNotFound(tenantId);
    const adapter = this.push.adapter;
    const now = Date.now();
    const age = (mark?: ErrorMark) => (mark ? Math.round((now - mark.at.getTime()) / 100) / 10 : null);
    return {
      tenant_id: tenantId.toLowerCase(),
      generated_at: new Date(now).toISOString(),
      pubsub: {
        cache_url_configured: adapter.configured,
        availability: adapter.state,
        push_live: this.push.liveFor(tenantId),
        connection_generation: adapter.connectionGeneration,
        transitions: adapter.availability.history.map((t) => ({ from: t.from, to: t.to, at: t.at.toISOString(), reason: t.reason })),
        publish: this.push.counters.stats(tenantId),
        polling: { interval_ms: this.config.pollIntervalMs, safety_interval_ms: this.config.pushSafetyPollMs, max_wait_seconds: this.config.maxWaitS },
        budget: this.config.isHosted
          ? { plan: this.plans.cached(tenantId) ?? 'unknown', enforced: true, ...this.push.budget.status(tenantId), alerts_sent: this.alerts.sentFor(tenantId) }
          : { plan: 'paid', enforced: false, tier: 'unlimited' },
        cache: { read_through: { implemented: false }, board_read: this.board.usable(tenantId) ? { live: true, ...this.board.stats() } : { live: false } },
        last_error_class: adapter.lastError?.errorClass ?? null,
        last_error_age_seconds: age(adapter.lastError),
        last_construction_error_class: adapter.lastConstructionError?.errorClass ?? null,
        last_construction_error_age_seconds: age(adapter.lastConstructionError),
        last_connection_error_class: adapter.lastConnectionError?.errorClass ?? null,
        last_connection_error_age_seconds: age(adapter.lastConnectionError),
      },
      ...this.more?.layers(tenantId.toLowerCase()),
    };
  }
}
