import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Counter {
  hits: number;
  /** When the window that `hits` counts in ends (ms since the epoch). */
  windowEnds: number;
  /** When the block set by going over the limit ends; 0 when none was set. */
  blockedUntil: number;
}

export interface MemoryThrottlerOptions {
  /** The clock, in ms since the epoch; a test passes its own. */
  now?: () => number;
  /** How often counters whose window and block are over are dropped. */
  sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * Rate-limit counters in this process's memory, counted as the Redis storage
 * counts them: a window of `ttl` opens at a key's first hit and its count
 * restarts when it ends; the hit that goes past `limit` blocks the key for
 * `blockDuration`, and hits during the block still count. So a limit behaves
 * alike whether Redis or this process holds it, and a Redis outage does not
 * change how a budget is counted.
 *
 * A hit costs one map lookup and a few additions whatever the limit, and a
 * key's state is three numbers: `@nestjs/throttler`'s own in-memory storage
 * keeps a timestamp per hit and walks them all on every hit, which made a
 * tool call slower the larger SERVICE_MCP_RATE_LIMIT was (docs/decisions.md,
 * MCP). One timer drops the counters that are over.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly counters = new Map<string, Counter>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: MemoryThrottlerOptions = {}) {
    this.now = options.now ?? Date.now;
    // Started here rather than at the first hit, so the timer holds no request's async context.
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerRecord> {
    return this.hit(`${key}:${throttlerName}`, ttl, limit, blockDuration);
  }

  /** How many keys hold a counter (for tests and diagnostics). */
  get size(): number {
    return this.counters.size;
  }

  /** Drops every counter whose window and block are both over: a later hit would start afresh anyway. */
  sweep(): void {
    const now = this.now();
    for (const [key, counter] of this.counters) {
      if (counter.windowEnds <= now && counter.blockedUntil <= now) this.counters.delete(key);
    }
  }

  onApplicationShutdown() {
    clearInterval(this.sweeper);
    this.counters.clear();
  }

  private hit(id: string, ttl: number, limit: number, blockDuration: number): ThrottlerRecord {
    const now = this.now();
    let counter = this.counters.get(id);
    if (!counter) {
      counter = { hits: 0, windowEnds: now + ttl, blockedUntil: 0 };
      this.counters.set(id, counter);
    } else if (counter.windowEnds <= now) {
      counter.hits = 0;
      counter.windowEnds = now + ttl;
    }
    counter.hits++;
    const timeToExpire = seconds(counter.windowEnds - now);
    if (blockDuration <= 0) {
      // No block to set: over the limit is refused until the window ends.
      const isBlocked = counter.hits > limit;
      return { totalHits: counter.hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? timeToExpire : 0 };
    }
    if (counter.blockedUntil <= now && counter.hits > limit) counter.blockedUntil = now + blockDuration;
    const isBlocked = counter.blockedUntil > now;
    return { totalHits: counter.hits, timeToExpire, isBlocked, timeToBlockExpire: isBlocked ? seconds(counter.blockedUntil - now) : 0 };
  }
}

/** Whole seconds, rounded up, as both storages answer them. */
function seconds(ms: number): number {
  return Math.ceil(ms / 1000);
}
