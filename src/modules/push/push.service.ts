import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { longPoll, PublishCounters, PushBudget, RedisPush, WakeRegistry } from '../../../libs/pubsub';
import { extendRequestDeadline } from '../../../libs/tenancy';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BudgetAlerts } from './budget-alerts.service';
import { Plan, TenantPlans } from './tenant-plans.service';

export interface PushNotice {
  /** Topics whose waiters should read again (`msg:<project>:...`, `hitl:<id>`). */
  wake?: string[];
  /** A dashboard event for the tenant's WebSockets. */
  event?: { event: string; data: Record<string, unknown> };
}

/**
 * Baton's side of libs/pubsub: one adapter per process, the in-process
 * waiters, the per-tenant budget and counters. `publish` delivers at once to
 * this instance (waiters, dashboards) and, when the tenant may use push,
 * through Redis to every other instance. `waitFor` is the long-poll every
 * wait uses: woken by push, else reading the database every
 * SERVICE_POLL_INTERVAL_MS; while push is live, a slow safety read every
 * SERVICE_PUSH_SAFETY_POLL_MS covers a lost wake-up.
 */
@Injectable()
export class PushService implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('push');
  /** Unknown while the database is down: once per interval, not once per wait. */
  private readonly planUnknown = new ThrottledLog(this.logger);
  readonly registry = new WakeRegistry();
  readonly counters = new PublishCounters();
  readonly adapter: RedisPush;
  readonly budget: PushBudget;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeEvents,
    private readonly plans: TenantPlans,
    private readonly alerts: BudgetAlerts,
    clock: Clock,
  ) {
    this.adapter = new RedisPush({ url: config.cacheUrl, prefix: config.pubsubPrefix, now: () => clock.now() });
    this.budget = new PushBudget(
      () => this.adapter.commandClient,
      config.pubsubPrefix,
      { warning: config.pushBudgetWarning, disable: config.pushBudgetDisable, adminAlert: config.pushBudgetAdminAlert },
      () => clock.now(),
    );
  }

  onModuleInit() {
    this.realtime.setRelay((event) => this.publish(event.tenantId, { event: { event: event.event, data: event.data } }));
    this.adapter.onEnvelope((envelope) => {
      if (envelope.p) {
        this.budget.markPaused(envelope.t, envelope.p);
        this.registry.wakeTenant(envelope.t);
      }
      for (const topic of envelope.w ?? []) this.registry.wake(WakeRegistry.key(envelope.t, topic));
      if (envelope.e) this.realtime.deliverLocal({ tenantId: envelope.t, event: envelope.e.event, data: envelope.e.data });
    });
    // Every waiter re-reads and picks the poll interval of the new state.
    this.adapter.availability.onChange((t) => {
      this.logger.log({ msg: 'push availability changed', from: t.from, to: t.to, reason: t.reason });
      this.registry.wakeAll();
    });
  }

  async onApplicationShutdown() {
    this.realtime.setRelay(undefined);
    await this.adapter.close();
  }

  /** Delivers to this instance now and, when the tenant may use push, to all others. Never throws or waits. */
  publish(tenantId: string, notice: PushNotice): void {
    for (const topic of notice.wake ?? []) this.registry.wake(WakeRegistry.key(tenantId, topic));
    if (notice.event) this.realtime.deliverLocal({ tenantId, event: notice.event.event, data: notice.event.data });
    this.publishRemote(tenantId, notice).catch((error: Error) => {
      this.counters.failure(tenantId);
      this.logger.error({ msg: 'push publish failed unexpectedly', tenant_id: tenantId, error: error.message });
    });
  }

  /** Whether waiters of this tenant are woken by push (else they poll). */
  liveFor(tenantId: string): boolean {
    return this.adapter.live && this.plans.cached(tenantId) === 'paid' && !this.budget.isPaused(tenantId);
  }

  /** Milliseconds a waiter of this tenant sleeps between database reads when nobody wakes it. */
  intervalFor(tenantId: string): number {
    return this.liveFor(tenantId) ? this.config.pushSafetyPollMs : this.config.pollIntervalMs;
  }

  /** A request's `wait` in seconds, capped at SERVICE_MAX_WAIT_SECONDS, in milliseconds. */
  waitMs(seconds: number | undefined): number {
    return Math.round(Math.min(Math.max(seconds ?? 0, 0), this.config.maxWaitS) * 1000);
  }

  /** Reads until `done` or `waitMs` passed; woken early by a publish on one of `topics`. */
  async waitFor<T>(tenantId: string, topics: string[], waitMs: number, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    // The request's deadline gives the wait its own time on top of what any request has.
    if (waitMs > 0) extendRequestDeadline(Date.now() + waitMs + this.config.requestTimeoutSeconds * 1000);
    if (waitMs > 0) await this.knowPlan(tenantId);
    return longPoll({
      registry: this.registry,
      keys: topics.map((topic) => WakeRegistry.key(tenantId, topic)),
      waitMs,
      read,
      done,
      interval: () => this.intervalFor(tenantId),
    });
  }

  /** The tenant's plan (read at most every SERVICE_PLAN_CACHE_SECONDS); unknown counts as free: polling. */
  private async knowPlan(tenantId: string): Promise<Plan> {
    try {
      const { plan, fresh } = await this.plans.planOf(tenantId);
      if (fresh && plan === 'paid' && this.config.isHosted) {
        const fired = await this.budget.refresh(tenantId);
        if (fired.length > 0) await this.alerts.fire(tenantId, fired, this.budget.status(tenantId));
      }
      return plan;
    } catch (error) {
      this.planUnknown.warn('tenant plan unknown: polling', { tenant_id: tenantId, error: (error as Error).message });
      return 'free';
    }
  }

  private async publishRemote(tenantId: string, notice: PushNotice) {
    if (!this.adapter.configured) return this.counters.fallback(tenantId);
    const plan = await this.knowPlan(tenantId);
    if (plan !== 'paid' || this.budget.isPaused(tenantId) || !this.adapter.live) return this.counters.fallback(tenantId);
    this.counters.attempt(tenantId);
    const outcome = await this.adapter.publish({ t: tenantId, w: notice.wake, e: notice.event }, this.config.isHosted ? this.budget.countKey(tenantId) : undefined);
    if (!outcome.ok) {
      this.counters.failure(tenantId);
      this.counters.fallback(tenantId);
      return;
    }
    this.counters.success(tenantId, outcome.latencyMs);
    if (outcome.count === undefined) return;
    const wasPaused = this.budget.isPaused(tenantId);
    const fired = await this.budget.observe(tenantId, outcome.count);
    if (!wasPaused && this.budget.isPaused(tenantId)) {
      // Tell the other instances at once; their waiters switch to polling.
      await this.adapter.publish({ t: tenantId, p: this.budget.status(tenantId).month });
      this.registry.wakeTenant(tenantId);
    }
    if (fired.length > 0) await this.alerts.fire(tenantId, fired, this.budget.status(tenantId));
  }
}
