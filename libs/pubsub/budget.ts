import type Redis from 'ioredis';

export interface BudgetThresholds {
  /** Tier 1: dashboard notice and e-mail to the tenant. */
  warning: number;
  /** Tier 2: push paused for the rest of the month, hard-limit e-mail. */
  disable: number;
  /** Tier 3: admin alert (the pause of tier 2 did not hold). */
  adminAlert: number;
}

export type BudgetTier = 'warning' | 'disable' | 'admin_alert';

export interface BudgetStatus {
  month: string;
  /** Publish commands counted this month, as last seen by this instance. */
  count: number;
  tier: 'ok' | 'warning' | 'disabled' | 'admin_alert';
  push_paused: boolean;
  thresholds: { warning: number; disable: number; admin_alert: number };
}

/** Counters live a little longer than a month, then Redis forgets them. */
export const BUDGET_TTL_SECONDS = 40 * 86400;

/** The calendar month of `date` in UTC, `YYYY-MM`: budgets reset when it changes. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** Redis key of a tenant's publish count for one month. */
export function budgetCountKey(prefix: string, tenantId: string, month: string): string {
  return `${prefix}:budget:${tenantId}:${month}`;
}

interface TenantBudget {
  month: string;
  count: number;
  paused: boolean;
  /** Tiers this instance knows were claimed this month (by it or another instance). */
  claimed: Set<BudgetTier>;
}

const ORDER: BudgetTier[] = ['warning', 'disable', 'admin_alert'];

/**
 * Per-tenant monthly budget of publish commands (spec §8). The count is an
 * INCR in Redis done in the same round trip as each publish, so it holds
 * across instances. Each tier's effect is claimed with SET NX on a
 * per-month key, so it fires once per tenant per calendar month however many
 * instances see the count cross it. From the disable threshold on, this
 * instance stops publishing for the tenant until the month changes; the other
 * instances learn it from the pause envelope or their next count refresh.
 */
export class PushBudget {
  private readonly tenants = new Map<string, TenantBudget>();

  constructor(
    private readonly redis: () => Redis | undefined,
    private readonly prefix: string,
    readonly thresholds: BudgetThresholds,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The counter key for the current month. */
  countKey(tenantId: string): { key: string; ttlSeconds: number } {
    return { key: budgetCountKey(this.prefix, tenantId, monthOf(this.now())), ttlSeconds: BUDGET_TTL_SECONDS };
  }

  isPaused(tenantId: string): boolean {
    return this.of(tenantId).paused;
  }

  /** Another instance paused the tenant for `month`. */
  markPaused(tenantId: string, month: string) {
    const budget = this.of(tenantId);
    if (budget.month === month) budget.paused = true;
  }

  /**
   * Records the count a publish returned and claims every tier it has reached
   * that nobody claimed yet this month. Returns the tiers this call claimed,
   * i.e. the effects the caller must fire now.
   */
  async observe(tenantId: string, count: number): Promise<BudgetTier[]> {
    const budget = this.of(tenantId);
    budget.count = Math.max(budget.count, count);
    if (count >= this.thresholds.disable) budget.paused = true;
    const reached = ORDER.filter((tier) => count >= this.limitOf(tier) && !budget.claimed.has(tier));
    const fired: BudgetTier[] = [];
    for (const tier of reached) {
      const redis = this.redis();
      if (!redis) break;
      try {
        const won = await redis.set(`${budgetCountKey(this.prefix, tenantId, budget.month)}:${tier}`, '1', 'EX', BUDGET_TTL_SECONDS, 'NX');
        budget.claimed.add(tier);
        if (won === 'OK') fired.push(tier);
      } catch {
        // Redis went away between the publish and the claim: the next count claims it.
        break;
      }
    }
    return fired;
  }

  /**
   * Reads the tenant's count from Redis: another instance may have paused it,
   * or (tier 3) kept publishing past the pause. Returns the tiers this call
   * claimed, like `observe`.
   */
  async refresh(tenantId: string): Promise<BudgetTier[]> {
    const redis = this.redis();
    if (!redis) return [];
    const budget = this.of(tenantId);
    let count: number;
    try {
      count = Number((await redis.get(budgetCountKey(this.prefix, tenantId, budget.month))) ?? 0);
    } catch {
      return []; // unreachable: what this instance knew stays
    }
    return count > 0 ? this.observe(tenantId, count) : [];
  }

  status(tenantId: string): BudgetStatus {
    const budget = this.of(tenantId);
    const tier =
      budget.count >= this.thresholds.adminAlert
        ? 'admin_alert'
        : budget.count >= this.thresholds.disable || budget.paused
          ? 'disabled'
          : budget.count >= this.thresholds.warning
            ? 'warning'
            : 'ok';
    return {
      month: budget.month,
      count: budget.count,
      tier,
      push_paused: budget.paused,
      thresholds: { warning: this.thresholds.warning, disable: this.thresholds.disable, admin_alert: this.thresholds.adminAlert },
    };
  }

  private limitOf(tier: BudgetTier): number {
    if (tier === 'warning') return this.thresholds.warning;
    if (tier === 'disable') return this.thresholds.disable;
    return this.thresholds.adminAlert;
  }

  /** The tenant's budget for the current month: a new month starts from zero, unpaused. */
  private of(tenantId: string): TenantBudget {
    const month = monthOf(this.now());
    let budget = this.tenants.get(tenantId);
    if (!budget || budget.month !== month) {
      budget = { month, count: 0, paused: false, claimed: new Set() };
      this.tenants.set(tenantId, budget);
    }
    return budget;
  }
}
