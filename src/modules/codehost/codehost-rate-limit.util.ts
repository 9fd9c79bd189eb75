/**
 * How long the code host asks Baton to wait before trying again, in milliseconds, or undefined when
 * the answer is no rate-limit refusal. GitHub's shapes: 429, or 403 with `Retry-After` (seconds or
 * an HTTP date) or with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` (epoch seconds). A 403
 * without those is a refusal of permission, not a limit.
 */
export function rateLimitWaitMs(status: number, headers: Headers, nowMs: number): number | undefined {
  if (status !== 429 && status !== 403) return undefined;
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const at = Date.parse(retryAfter);
    if (Number.isFinite(at)) return Math.max(0, at - nowMs);
  }
  const reset = Number(headers.get('x-ratelimit-reset'));
  if (headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - nowMs);
  // A 429 that says nothing about when: a short wait, the backoff decides.
  return status === 429 ? 0 : undefined;
}
