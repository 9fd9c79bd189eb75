/**
 * Delay before retry number `retry` (0 for the first retry) of a chunk:
 * exponential in the retry number, with up to +50 % random jitter so that
 * instances retrying against the same collector spread out. Because the jitter
 * stays below the doubling, each delay is longer than the one before it.
 */
export function backoffDelayMs(baseS: number, retry: number, random: () => number = Math.random): number {
  const jitter = Math.min(Math.max(random(), 0), 0.999999) * 0.5;
  return Math.round(baseS * 1000 * 2 ** retry * (1 + jitter));
}
