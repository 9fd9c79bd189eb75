import { backoffDelay } from '../retry';

/**
 * Up to +50 % on every wait, so that instances retrying against the same
 * collector spread out. Because the jitter stays below the doubling, each
 * delay is longer than the one before it.
 */
export const BACKOFF_JITTER = [0, 0.5] as const;

/** Delay before retry number `retry` (0 for the first retry) of a chunk: exponential in the retry number, jittered. */
export function backoffDelayMs(baseS: number, retry: number, random: () => number = Math.random): number {
  return backoffDelay({ firstMs: baseS * 1000, jitter: BACKOFF_JITTER }, retry, random);
}
