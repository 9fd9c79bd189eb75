const SAMPLES = 64;
const MAX_TENANTS = 10_000;

export interface PublishStats {
  attempts: number;
  successes: number;
  failures: number;
  /** Wake-ups that went through database polling instead of push (no Redis, free plan, paused budget, outage, failure). */
  fallbacks: number;
  /** The latest publish round trips in milliseconds, oldest first (at most 64). */
  latency_ms_samples: number[];
  latency_ms: { p50: number | null; p99: number | null; max: number | null };
}

interface Counts {
  attempts: number;
  successes: number;
  failures: number;
  fallbacks: number;
  samples: number[];
}

/**
 * Publish counters per tenant, in process memory only: the diagnostics read
 * them without any round trip. Bounded: 64 latency samples per tenant and at
 * most 10,000 tenants (the least recently counted is forgotten first).
 */
export class PublishCounters {
  private readonly tenants = new Map<string, Counts>();

  attempt(tenantId: string) {
    this.of(tenantId).attempts += 1;
  }

  success(tenantId: string, latencyMs: number) {
    const c = this.of(tenantId);
    c.successes += 1;
    c.samples.push(Math.round(latencyMs * 1000) / 1000);
    if (c.samples.length > SAMPLES) c.samples.shift();
  }

  failure(tenantId: string) {
    this.of(tenantId).failures += 1;
  }

  fallback(tenantId: string) {
    this.of(tenantId).fallbacks += 1;
  }

  stats(tenantId: string): PublishStats {
    const c = this.tenants.get(tenantId) ?? { attempts: 0, successes: 0, failures: 0, fallbacks: 0, samples: [] };
    const sorted = [...c.samples].sort((a, b) => a - b);
    const pick = (q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : null);
    return {
      attempts: c.attempts,
      successes: c.successes,
      failures: c.failures,
      fallbacks: c.fallbacks,
      latency_ms_samples: [...c.samples],
      latency_ms: { p50: pick(0.5), p99: pick(0.99), max: sorted.length ? sorted[sorted.length - 1] : null },
    };
  }

  private of(tenantId: string): Counts {
    let c = this.tenants.get(tenantId);
    if (c) {
      this.tenants.delete(tenantId);
    } else {
      c = { attempts: 0, successes: 0, failures: 0, fallbacks: 0, samples: [] };
      if (this.tenants.size >= MAX_TENANTS) this.tenants.delete(this.tenants.keys().next().value as string);
    }
    this.tenants.set(tenantId, c);
    return c;
  }
}
