import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { BudgetStatus, CoalescedPoll, longPoll, Probe, PublishCounters, PushBudget, RedisPush, TenantVersions, WakeRegistry } from '../../../libs/pubsub';
import { currentTenant, extendRequestDeadline, runWithTenant } from '../../../libs/tenancy';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { ShutdownDrain } from '../../common/lifecycle/shutdown-drain';
import { Metrics } from '../../common/observability/metrics';
import { Clock } from '../../common/clock';
import { RealtimeEventName, RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BudgetAlerts } from './budget-alerts.service';
import { Plan, TenantPlans } from './tenant-plans.service';
import { allowanceOf } from '../../common/plans';

/** The name of the tenants' waits versions in Redis (`TenantVersions`). */
const WAITS_VERSION = 'waits';

export interface PushNotice {
  /** Topics whose waiters should read again (`msg:<project>:...`, `hitl:<id>`). */
  wake?: string[];
  /** A dashboard event for the tenant's WebSockets. */
  event?: { event: RealtimeEventName; data: Record<string, unknown>; account?: string };
}

/**
 * How the waiters of one scope (a project's messages, a tenant's questions) share one read per
 * interval instead of each reading on its own (see CoalescedPoll).
 */
export interface SharedRead<T> {
  /** The scope within the tenant, e.g. `msg:<project>`. */
  scope: string;
  /** The scope's one read, run in the tenant's context: what changed after `since`. */
  probe: Probe;
  /** The version one waiter's own read saw. */
  version: (value: T) => number;
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
  /** One read per scope and interval serves every waiter of it (keys `<tenant>|<scope>`). */
  readonly shared: CoalescedPoll;
  /** No Redis and a SQLite file: every write goes through this process, which wakes its own waiters; reads are only a safety net. */
  private readonly singleProcess: boolean;
  /** A shared read failed (the database is away): once per interval, not once per scope. */
  private readonly sharedReadFailed = new ThrottledLog(this.logger);
  /**
   * With Redis: a version per tenant that every wake-up published here moves (`waits`), whatever the
   * tenant's plan. A shared read asks it first and skips a scope whose tenant's version has not moved
   * since its last read (`CoalescedPoll` gate), so a tenant that polls costs one key read per
   * interval, not one database read, while nothing happens.
   */
  private readonly waitVersions?: TenantVersions;
  private readonly waitBumpFailed = new ThrottledLog(this.logger);
  readonly counters = new PublishCounters();
  readonly adapter: RedisPush;
  readonly budget: PushBudget;
  /** Told of every notice published on this instance (not of those that arrive from others). */
  private readonly publishListeners: ((tenantId: string, notice: PushNotice) => void)[] = [];
  /** Who hears the wake-up topics other instances publish (the board-read cache). */
  private readonly remoteTopicListeners: ((tenantId: string, topics: string[]) => void)[] = [];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeEvents,
    private readonly plans: TenantPlans,
    private readonly alerts: BudgetAlerts,
    clock: Clock,
    private readonly drain: ShutdownDrain,
    metrics: Metrics,
  ) {
    this.adapter = new RedisPush({ url: config.cacheUrl, prefix: config.pubsubPrefix, now: () => clock.now() });
    this.budget = new PushBudget(
      () => this.adapter.commandClient,
      config.pubsubPrefix,
      { warning: config.pushBudgetWarning, disable: config.pushBudgetDisable, adminAlert: config.pushBudgetAdminAlert },
      () => clock.now(),
    );
    this.singleProcess = !this.adapter.configured && config.databaseType === 'sqlite';
    const versions = this.adapter.configured
      ? new TenantVersions(
          () => this.adapter.openClient,
          () => this.adapter.commandClient,
          config.pubsubPrefix,
          WAITS_VERSION,
        )
      : undefined;
    this.waitVersions = versions;
    this.shared = new CoalescedPoll({
      interval: (key) => this.intervalFor(WakeRegistry.tenantOf(key)),
      onError: (key, error) => this.sharedReadFailed.warn('shared wait read failed: the waiters read again next interval', { scope: key, error: (error as Error).message }),
      // A write whose version could not be moved is still read within the safety poll, as a lost wake-up is.
      ...(versions && { gate: (keys: string[]) => versions.readMany(keys.map(WakeRegistry.tenantOf)), gateMaxMs: config.pushSafetyPollMs }),
    });
    metrics.gauge('baton_long_poll_waiters', 'Requests of this instance waiting in a long-poll (HITL waits, message receives)', () => this.registry.waiting);
    metrics.gauge(
      'baton_shared_wait_reads',
      'Shared reads of waiting scopes since start: made (read) and spared by the unmoved waits version (skipped)',
      () => ({ ...this.shared.figures }),
      'outcome',
    );
    metrics.gauge('baton_push_live', 'Whether cross-instance push through Redis is live (1) or waiters poll (0)', () => (this.adapter.live ? 1 : 0));
  }

  onModuleInit() {
    // Stopping: every waiter reads once more and answers with what it has, so no long-poll holds the drain.
    this.drain.onDrain(() => this.registry.wakeAll());
    // RealtimeEvents.publish counted the event already: the relay delivers it without counting again.
    this.realtime.setRelay((event) => this.deliver(event.tenantId, { event: { event: event.event, data: event.data, account: event.accountId } }));
    this.adapter.onEnvelope((envelope) => {
      if (envelope.p) {
        this.budget.markPaused(envelope.t, envelope.p);
        this.registry.wakeTenant(envelope.t);
        this.shared.reschedule();
      }
      for (const topic of envelope.w ?? []) this.registry.wake(WakeRegistry.key(envelope.t, topic));
      for (const listener of this.remoteTopicListeners) listener(envelope.t, envelope.w ?? []);
      // Another instance's PushService published it from a typed PushNotice; the wire only loses the type.
      if (envelope.e) this.realtime.deliverLocal({ tenantId: envelope.t, accountId: envelope.e.account, event: envelope.e.event as RealtimeEventName, data: envelope.e.data });
    });
    // Every waiter re-reads and picks the poll interval of the new state.
    this.adapter.availability.onChange((t) => {
      this.logger.log({ msg: 'push availability changed', from: t.from, to: t.to, reason: t.reason });
      this.registry.wakeAll();
      this.shared.reschedule();
    });
  }

  async onApplicationShutdown() {
    this.realtime.setRelay(undefined);
    await this.adapter.close();
  }

  /**
   * Tells `listener` of every notice this instance publishes, as it is published (in the publisher's
   * context), so that follow-up work happens once, where the change was made. It must not throw or wait.
   */
  onPublish(listener: (tenantId: string, notice: PushNotice) => void): void {
    this.publishListeners.push(listener);
  }

  /** Delivers to this instance now and, when the tenant may use push, to all others. Never throws or waits. */
  publish(tenantId: string, notice: PushNotice): void {
    if (notice.event) this.realtime.countOrigin(notice.event);
    this.deliver(tenantId, notice);
  }

  private deliver(tenantId: string, notice: PushNotice): void {
    if (notice.wake?.length) this.movedWaits(tenantId);
    for (const listener of this.publishListeners) listener(tenantId, notice);
    for (const topic of notice.wake ?? []) this.registry.wake(WakeRegistry.key(tenantId, topic));
    if (notice.event) this.realtime.deliverLocal({ tenantId, accountId: notice.event.account, event: notice.event.event, data: notice.event.data });
    this.publishRemote(tenantId, notice).catch((error: Error) => {
      this.counters.failure(tenantId);
      this.logger.error({ msg: 'push publish failed unexpectedly', tenant_id: tenantId, error: error.message });
    });
  }

  /** Something a waiter of `tenantId` may wait for has changed (and committed): its waits version moves. */
  private movedWaits(tenantId: string): void {
    const versions = this.waitVersions;
    if (!versions) return;
    void versions.bump(tenantId).then((moved) => {
      if (!moved)
        this.waitBumpFailed.warn('waits version not moved in Redis: waiters on other instances that poll see this change within the safety poll', {
          tenant_id: tenantId,
          availability: this.adapter.state,
        });
    });
  }

  /**
   * The tenant's push budget as counted across instances right now (read from Redis when it is
   * reachable, else what this instance last saw); a tier crossed meanwhile fires its alerts here too.
   */
  async budgetStatus(tenantId: string): Promise<BudgetStatus> {
    const fired = await this.budget.refresh(tenantId);
    if (fired.length > 0) await this.alerts.fire(tenantId, fired, this.budget.status(tenantId));
    return this.budget.status(tenantId);
  }

  /** Calls `listener` with the wake-up topics of every notice another instance publishes. */
  onRemoteTopics(listener: (tenantId: string, topics: string[]) => void): void {
    this.remoteTopicListeners.push(listener);
  }

  /** Whether waiters of this tenant are woken by push (else they poll). */
  liveFor(tenantId: string): boolean {
    return this.adapter.live && allowanceOf(this.plans.cached(tenantId)).pushMessaging && !this.budget.isPaused(tenantId);
  }

  /**
   * Milliseconds between two database reads of a waiting scope of this tenant when nobody wakes
   * it: the safety poll while push is live, or when this process is the only writer (SQLite, no
   * Redis) and wakes its waiters itself; else the poll interval.
   */
  intervalFor(tenantId: string): number {
    return this.singleProcess || this.liveFor(tenantId) ? this.config.pushSafetyPollMs : this.config.pollIntervalMs;
  }

  /** A request's `wait` in seconds, capped at SERVICE_MAX_WAIT_SECONDS, in milliseconds. */
  waitMs(seconds: number | undefined): number {
    return Math.round(Math.min(Math.max(seconds ?? 0, 0), this.config.maxWaitS) * 1000);
  }

  /**
   * Reads until `done` or `waitMs` passed; woken early by a publish on one of `topics`. With
   * `shared`, a waiting request never reads on its own: its scope's one read per interval wakes
   * it when one of its topics changed.
   */
  async waitFor<T>(tenantId: string, topics: string[], waitMs: number, read: () => Promise<T>, done: (value: T) => boolean, shared?: SharedRead<T>): Promise<T> {
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
      stopping: () => this.drain.draining,
      shared: shared && waitMs > 0 ? this.sharedOf(tenantId, topics, shared) : undefined,
    });
  }

  private sharedOf<T>(tenantId: string, topics: string[], shared: SharedRead<T>) {
    // The shared read runs on a timer, outside any request: in the tenant's context, with no request deadline.
    const tenant = currentTenant();
    return {
      poll: this.shared,
      scope: WakeRegistry.key(tenantId, shared.scope),
      probe: ((since, ts) => runWithTenant(tenant, () => shared.probe(since, ts))) as Probe,
      topics,
      version: shared.version,
    };
  }

  /** The tenant's plan (read at most every SERVICE_PLAN_CACHE_SECONDS); unknown counts as free: polling. */
  private async knowPlan(tenantId: string): Promise<Plan> {
    try {
      const { plan, fresh } = await this.plans.planOf(tenantId);
      if (fresh && allowanceOf(plan).pushMessaging && this.config.isHosted) {
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
    if (!allowanceOf(plan).pushMessaging || this.budget.isPaused(tenantId) || !this.adapter.live) return this.counters.fallback(tenantId);
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
      this.shared.reschedule();
    }
    if (fired.length > 0) await this.alerts.fire(tenantId, fired, this.budget.status(tenantId));
  }
}
