/**
 * How the waits between attempts grow: `firstMs`, then `factor` times the
 * wait before it, never above `maxMs`. With `jitter: [low, high]` each wait is
 * multiplied by a random number in `[1 + low, 1 + high)` (and rounded to whole
 * milliseconds), so that instances retrying against the same peer spread out.
 */
export interface Backoff {
  firstMs: number;
  /** Default 2. */
  factor?: number;
  /** Default: no ceiling. */
  maxMs?: number;
  jitter?: readonly [low: number, high: number];
}

/** Just below 1: a random source answering exactly 1 still gives a wait inside the jitter range. */
const RANDOM_CEILING = 0.999999;

/**
 * The wait before retry number `retry` (0 for the wait after the first failed
 * attempt). `random` is replaceable so that tests can pin the jitter.
 */
export function backoffDelay(backoff: Backoff, retry: number, random: () => number = Math.random): number {
  const grown = backoff.firstMs * (backoff.factor ?? 2) ** retry;
  const capped = backoff.maxMs === undefined ? grown : Math.min(grown, backoff.maxMs);
  if (!backoff.jitter) return capped;
  const [low, high] = backoff.jitter;
  const spread = Math.min(Math.max(random(), 0), RANDOM_CEILING) * (high - low);
  return Math.round(capped * (1 + low + spread));
}
