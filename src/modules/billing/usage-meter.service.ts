import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { IsNull, MoreThanOrEqual } from 'typeorm';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
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

/** How long a workspace's measured usage is trusted before the cap check measures again. */
const CHECK_CACHE_MS = 30_000;

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
export class UsageMeter implements OnModuleInit {
  private readonly checked = new Map<string, { at: number; usage: MeteredUsage }>();

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

  /** The current tenant's usage this month. */
  async measure(plan: Plan, caps: Caps): Promise<MeteredUsage> {
    const now = this.clock.now();
    const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const { toolCalls, runs, storage } = await this.db.read(async (m) => ({
      toolCalls: await m.count(AiLogEvent, { where: { kind: 'tool_call', occurred_at: MoreThanOrEqual(since) } }),
      runs: await m.find(ExecutorRun, { select: { started_at: true, finished_at: true }, where: [{ finished_at: MoreThanOrEqual(since) }, { finished_at: IsNull() }] }),
      storage: this.db.dialect === 'sqlite' ? await sqliteBytes(m.query.bind(m)) : await postgresBytes(m.query.bind(m)),
    }));
    const runMs = runs.reduce((sum, r) => sum + Math.max(0, (r.finished_at ?? now).getTime() - Math.max(r.started_at.getTime(), since.getTime())), 0);
    const included = PLAN_USAGE_INCLUDED[plan];
    const usage = { toolCalls, runMinutes: Math.round((runMs / 60_000) * 10) / 10, storageBytes: storage };
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

  /** Forget what was measured for the current tenant (its caps or plan changed). */
  forget(): void {
    this.checked.delete(currentTenant().tenantId);
  }

  /** Refuses a write that adds data once storage is past the included amount and the cap (hosted). */
  async checkStorage(): Promise<void> {
    if (!this.config.isHosted) return;
    if ((await this.current()).storage_blocked) throw BillingError.storageCapReached();
  }

  private async gate(readOnly: boolean): Promise<void> {
    if (!this.config.isHosted) return;
    const usage = await this.current();
    if (usage.compute_blocked) throw BillingError.computeCapReached(usage.month);
    if (!readOnly && usage.storage_blocked) throw BillingError.storageCapReached();
  }

  /** The current tenant's usage, measured at most every CHECK_CACHE_MS. */
  private async current(): Promise<MeteredUsage> {
    const tenantId = currentTenant().tenantId;
    let entry = this.checked.get(tenantId);
    if (!entry || Date.now() - entry.at > CHECK_CACHE_MS) {
      const { plan } = await this.plans.planOf(tenantId);
      const row = await this.db.read((m) => m.findOneBy(UsageSettingsRow, { id: 'singleton' }));
      entry = {
        at: Date.now(),
        usage: await this.measure(plan, { compute_overage_cap_usd: row?.compute_overage_cap_usd ?? null, storage_overage_cap_gb: row?.storage_overage_cap_gb ?? null }),
      };
      this.checked.set(tenantId, entry);
    }
    return entry.usage;
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
