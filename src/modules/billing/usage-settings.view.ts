import type { Plan } from '../../common/plans';

/** The views of GET/PATCH /settings/usage (kept apart from the services, so the dashboard reads them without server code). */

export interface MeteredUsage {
  /** The calendar month (UTC) counted, `YYYY-MM`. */
  month: string;
  tool_calls: number;
  run_minutes: number;
  storage_bytes: number;
  /** What the plan includes each month. */
  included: { tool_calls: number; run_minutes: number; storage_bytes: number };
  /** Compute past the included amounts this month, in US dollars (spent from compute_overage_cap_usd). */
  compute_overage_usd: number;
  /** Whether the caps are enforced (hosted; a self-hosted Baton has no plan to exceed). */
  enforced: boolean;
  /** Whether tool calls are refused now (COMPUTE_CAP_REACHED), and writes (STORAGE_CAP_REACHED). */
  compute_blocked: boolean;
  storage_blocked: boolean;
}

export interface UsageSettings {
  /** The workspace's plan (read-only here: it moves with billing). */
  plan: Plan;
  compute_overage_cap_usd: number | null;
  storage_overage_cap_gb: number | null;
  /** When the settings were last changed; null while they are the defaults. */
  updated_at: string | null;
  /** This month's metered compute and storage, what the plan includes, and whether a cap stops work now. */
  usage: MeteredUsage;
  /** The monthly budget of push commands (hosted, paid plan); null where it does not apply. */
  push_budget: PushBudgetView | null;
  /** Where the upgrade button leads (a free hosted workspace, with checkout configured); else null. */
  upgrade_url: string | null;
}

export interface PushBudgetView {
  /** Publish commands counted this month. */
  used: number;
  /** Where push stops for the rest of the month (the disable tier). */
  limit: number;
  /** ok, warning, disabled or admin_alert. */
  tier: string;
  month: string;
  /** When the count starts again from zero: the first instant of next month, UTC. */
  resets_at: string;
}
