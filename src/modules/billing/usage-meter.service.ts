import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { EntityManager, IsNull, MoreThanOrEqual } from 'typeorm';
import { currentTenant, runWithTenant, TenantContext, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { OVERAGE_PRICES_USD, Plan, PLAN_USAGE_INCLUDED, UsageIncluded } from '../../common/plans';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ToolCallGates } from '../../mcp/tool-call-gates';
import { AiLogEvent } from '../ai-log/ai-log-event.entity';
import { ExecutorRun } from '../executor/executor-run.entity';
import { TenantPlans } from '../push/tenant-plans.service';
import { BillingError } from './billing.errors';
import { MeteredUsage } from './usage-settings.view';
import { UsageSettingsRow } from './usage-settings.entity';

/** How long the caps trust a workspace's measured compute before it is measured again, in the background. */
const COMPUTE_CHECK_MS = 30_000;
/**
 * How long they trust its measured storage. Storage grows slowly, and measuring it reads the size of
 * every table and index of the workspace: with a thousand workspaces on one Postgres, that costs the
 * database more than the writes it guards.
 */
const STORAGE_CHECK_MS = 5 * 60_000;

/** What the caps last measured of one workspace, and when. */
interface Measured {
  /** Which measurement began later (of two that overlap, the later one's reads saw every earlier change). */
  order: number;
  at: number;
  storageAt: number;
  usage: MeteredUsage;
}

interface Caps {
  compute_overage_cap_usd: number | null;
  storage_overage_cap_gb: number | null;
}

/**
 * Meters a workspace's compute (MCP tool calls, from the AI-log; executor run minutes) and
 * storage (bytes of its tables and indexes) for the current calendar month, and, hosted,
 * refuses tool calls once compute passes what the plan includes plus the overage cap, and
 * tool calls that write once storage does.
 */
@Injectable()
export class UsageMeter implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('usage');
  private readonly refreshFailed = new ThrottledLog(this.logger);
  private readonly checked = new Map<string, Measured>();
  /** The measurement queued or under way per workspace: its requests meanwhile queue no other. */
  private readonly measuring = new Map<string, Promise<void>>();
  /** When a workspace whose last measurement failed is measured again. */
  private readonly retryAt = new Map<string, number>();
  /** Measurements of stale workspaces, run one after another, off every request's path. */
  private refreshes: Promise<void> = Promise.resolve();
  private stopping = false;
  private began = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly plans: TenantPlans,
    private readonly gates: ToolCallGates,
  ) {}

  onModuleInit() {
    this.gates.register('usage caps', (tool) => this.gate(tool.readOnly));
  }

  async onApplicationShutdown() {
    this.stopping = true;
    await this.refreshes;
  }

  /** The current tenant's usage this month, measured now; the caps go by it from here on. */
  async measure(plan: Plan, caps: Caps): Promise<MeteredUsage> {
    const measured = await this.measureNow(++this.began, plan, caps, undefined);
    this.record(currentTenant().tenantId, measured);
    return measured.usage;
  }

  /** Measures compute, and storage unless `storage` (measured at `storage.at`) is still fresh. */
  private async measureNow(order: number, plan: Plan, caps: Caps, storage: { at: number; bytes: number } | undefined): Promise<Measured> {
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const at = Date.now();
    const fresh = storage && at - storage.at < STORAGE_CHECK_MS ? storage : undefined;
    const { toolCalls, runs, bytes } = await this.db.read(async (m) => ({
      toolCalls: await m.count(AiLogEvent, { where: { kind: 'tool_call', occurred_at: MoreThanOrEqual(since) } }),
      runs: await m.find(ExecutorRun, { select: { started_at: true, finished_at: true }, where: [{ finished_at: MoreThanOrEqual(since) }, { finished_at: IsNull() }] }),
      bytes: fresh ? fresh.bytes : await this.storageBytes(m),
    }));
    const runMs = runs.reduce((sum, r) => sum + Math.max(0, (r.finished_at ?? now).getTime() - Math.max(r.started_at.getTime(), since.getTime())), 0);
    const usage = { toolCalls, runMinutes: Math.round((runMs / 60_000) * 10) / 10, storageBytes: bytes };
    return { order, at, storageAt: fresh ? fresh.at : at, usage: this.usageOf(plan, caps, since, usage) };
  }

  /** Keeps `measured` unless a measurement that began later has landed (a background one must not undo a cap just changed). */
  private record(tenantId: string, measured: Measured): void {
    if ((this.checked.get(tenantId)?.order ?? 0) < measured.order) this.checked.set(tenantId, measured);
  }

  private storageBytes(m: EntityManager): Promise<number> {
    return this.db.dialect === 'sqlite' ? sqliteBytes(m.query.bind(m)) : postgresBytes(m.query.bind(m));
  }

  private usageOf(plan: Plan, caps: Caps, since: Date, usage: { toolCalls: number; runMinutes: number; storageBytes: number }): MeteredUsage {
    const included = PLAN_USAGE_INCLUDED[plan];
    const overage = computeOverageUsd(usage, included);
    const enforced = this.config.isHosted;
    return {
      month: since.toISOString().slice(0, 7),
      tool_calls: usage.toolCalls,
      run_minutes: usage.runMinutes,
      storage_bytes: usage.storageBytes,
      included: { tool_calls: included.toolCalls, run_minutes: included.runMinutes, storage_bytes: included.storageBytes },
      compute_overage_usd: Math.round(overage * 100) / 100,
      enforced,
      compute_blocked: enforced && overage > (caps.compute_overage_cap_usd ?? 0),
      storage_blocked: enforced && usage.storageBytes > included.storageBytes + (caps.storage_overage_cap_gb ?? 0) * 1e9,
    };
  }

  /** Refuses a write that adds data once storage is past the included amount and the cap (hosted). */
  checkStorage(): void {
    if (!this.config.isHosted) return;
    if (this.current()?.storage_blocked) throw BillingError.storageCapReached();
  }

  private gate(readOnly: boolean): void {
    if (!this.config.isHosted) return;
    const usage = this.current();
    if (usage?.compute_blocked) throw BillingError.computeCapReached(usage.month);
    if (!readOnly && usage?.storage_blocked) throw BillingError.storageCapReached();
  }

  /**
   * The current tenant's usage as last measured on this instance; undefined before its first
   * measurement, which the caps take as not blocked. No request waits for a measurement: when there
   * is none yet, or it is older than COMPUTE_CHECK_MS, the request queues one (run in the background,
   * one at a time per instance) and is judged by what is known, so a cap takes hold within about
   * that time, and after a restart once the instance has measured the workspace.
   */
  private current(): MeteredUsage | undefined {
    const tenant = currentTenant();
    const id = tenant.tenantId;
    const entry = this.checked.get(id);
    const due = (entry?.at ?? 0) + COMPUTE_CHECK_MS < Date.now() && (this.retryAt.get(id) ?? 0) <= Date.now();
    if (due && !this.measuring.has(id) && !this.stopping) this.queueMeasurement(tenant);
    return entry?.usage;
  }

  /** Queues a measurement of the tenant behind the others; skipped if the instance is stopping by its turn. */
  private queueMeasurement(tenant: TenantContext): void {
    const id = tenant.tenantId;
    const work = this.refreshes.then(() =>
      runWithTenant(tenant, async () => {
        if (this.stopping) return;
        const order = ++this.began;
        const { plan } = await this.plans.planOf(id);
        const row = await this.db.read((m) => m.findOneBy(UsageSettingsRow, { id: 'singleton' }));
        const caps = { compute_overage_cap_usd: row?.compute_overage_cap_usd ?? null, storage_overage_cap_gb: row?.storage_overage_cap_gb ?? null };
        const last = this.checked.get(id);
        this.record(id, await this.measureNow(order, plan, caps, last && { at: last.storageAt, bytes: last.usage.storage_bytes }));
      }),
    );
    this.measuring.set(id, work);
    this.refreshes = work
      .then(
        () => {
          this.retryAt.delete(id);
        },
        (error: Error) => {
          // Tried again after the interval, not on the next request.
          this.retryAt.set(id, Date.now() + COMPUTE_CHECK_MS);
          this.refreshFailed.warn('usage not measured: the caps go by the last measurement', { tenant_id: id, error: error.message });
        },
      )
      .finally(() => this.measuring.delete(id));
  }
}

/** US dollars of compute past what the plan includes. */
export function computeOverageUsd(usage: { toolCalls: number; runMinutes: number }, included: UsageIncluded): number {
  return (
    (Math.max(0, usage.toolCalls - included.toolCalls) / 1000) * OVERAGE_PRICES_USD.perThousandToolCalls +
    Math.max(0, usage.runMinutes - included.runMinutes) * OVERAGE_PRICES_USD.perRunMinute
  );
}

type Query = (sql: string) => Promise<Record<string, unknown>[]>;

async function sqliteBytes(query: Query): Promise<number> {
  const [pages] = await query('PRAGMA page_count');
  const [size] = await query('PRAGMA page_size');
  return Number(pages.page_count) * Number(size.page_size);
}

/** The tenant's own schema (the search path's first): its tables with their indexes and TOAST. */
async function postgresBytes(query: Query): Promise<number> {
  const [row] = await query(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'm', 'p')`,
  );
  return Number(row.bytes);
}
