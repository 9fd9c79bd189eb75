/**
 * What each plan allows, in one place. A hosted tenant's plan is the `plan`
 * column of control.tenants (read through TenantPlans); a self-hosted
 * instance has no plans and gets everything `paid` gets.
 */
export const PLANS = ['free', 'paid'] as const;
export type Plan = (typeof PLANS)[number];

/** A self-hosted instance has no billing: it is allowed what the paid plan is. */
export const SELF_HOSTED_PLAN: Plan = 'paid';

/** A stored plan name; anything unknown counts as free. */
export function planNamed(name: unknown): Plan {
  return (PLANS as readonly unknown[]).includes(name) ? (name as Plan) : 'free';
}

export interface PlanAllowance {
  /** Wake-ups pushed through Redis (spec §8: free tenants get none; they poll). */
  pushMessaging: boolean;
  /** `POST /tasks/enqueue`: work queued for an assistant subprocess on a registered executor. */
  queuedAssistantTasks: boolean;
  /** Machines with a live heartbeat a project may have registered at once. */
  maxRegisteredMachines: number;
  /** Slots (runs at once) one registered machine may declare. */
  maxSlotsPerMachine: number;
}

export const PLAN_ALLOWANCES: Readonly<Record<Plan, Readonly<PlanAllowance>>> = {
  free: { pushMessaging: false, queuedAssistantTasks: false, maxRegisteredMachines: 2, maxSlotsPerMachine: 2 },
  paid: { pushMessaging: true, queuedAssistantTasks: true, maxRegisteredMachines: 50, maxSlotsPerMachine: 32 },
};

/** What each plan costs, in US dollars a month (shown on /pricing). */
export const PLAN_PRICES_USD_MONTHLY: Readonly<Record<Plan, number>> = { free: 0, paid: 20 };

/** What `plan` allows; an unknown plan name counts as free. */
export function allowanceOf(plan: Plan | undefined): Readonly<PlanAllowance> {
  return PLAN_ALLOWANCES[planNamed(plan)];
}

/** What a plan includes each calendar month before overage: compute (tool calls, run minutes) and storage. */
export interface UsageIncluded {
  /** MCP tool calls a month. */
  toolCalls: number;
  /** Minutes of executor runs a month (a run's start to its end, or to now while it runs). */
  runMinutes: number;
  /** Bytes the workspace's storage may hold (tables and indexes). */
  storageBytes: number;
}

export const PLAN_USAGE_INCLUDED: Readonly<Record<Plan, Readonly<UsageIncluded>>> = {
  free: { toolCalls: 10_000, runMinutes: 600, storageBytes: 200_000_000 },
  paid: { toolCalls: 1_000_000, runMinutes: 30_000, storageBytes: 20_000_000_000 },
};

/** What usage past the included amounts costs, in US dollars (what `compute_overage_cap_usd` is spent on). */
export const OVERAGE_PRICES_USD: Readonly<{ perThousandToolCalls: number; perRunMinute: number }> = { perThousandToolCalls: 0.1, perRunMinute: 0.01 };
