import { Backoff, backoffDelay } from './backoff';

/** What one attempt came to: a value, or a failure that is retried unless `final`. */
export type AttemptOutcome<T, F> = { ok: true; value: T } | { ok: false; failure: F; final?: boolean };

/** Why retrying stopped without a value. */
export type RetryStop = 'final' | 'attempts' | 'deadline' | 'aborted';

export type RetryResult<T, F> =
  | { ok: true; value: T; attempts: number }
  /** `failure` is the last attempt's; undefined when the deadline or the signal came before any attempt. */
  | { ok: false; stop: RetryStop; failure: F | undefined; attempts: number };

/** Time, sleeping and randomness; tests replace them to run without waiting. */
export interface RetryClock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  random(): number;
}

export interface RetryOptions<F> {
  backoff: Backoff;
  /** Attempts in all, the first one included (default: no limit). At least one is made. */
  attempts?: number;
  /**
   * Epoch milliseconds (by `clock.now`) after which nothing starts: no attempt
   * begins at or after it, and no wait begins that would last until it.
   */
  deadlineAt?: number;
  /** Ends the waiting: no attempt starts once it is aborted. */
  signal?: AbortSignal;
  /** Called before each wait, with the attempt that failed (1 for the first), its failure and the wait. */
  onRetry?: (retry: { attempt: number; failure: F; delayMs: number }) => void | Promise<void>;
  clock?: RetryClock;
}

export const realRetryClock: RetryClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
  random: Math.random,
};

/**
 * Runs `attempt` until it gives a value, waiting between attempts as
 * `options.backoff` says. A failure is an outcome, not an exception: an
 * attempt that throws ends the retrying at once and the error goes to the
 * caller, so only what the attempt calls retriable is ever tried again.
 * `attempt` is told its number (1 for the first) and the milliseconds left
 * before the deadline (Infinity without one), to bound its own work.
 */
export async function retry<T, F>(attempt: (attempt: number, remainingMs: number) => Promise<AttemptOutcome<T, F>>, options: RetryOptions<F>): Promise<RetryResult<T, F>> {
  const clock = options.clock ?? realRetryClock;
  const deadlineAt = options.deadlineAt ?? Infinity;
  const maxAttempts = Math.max(1, options.attempts ?? Infinity);
  let failure: F | undefined;
  for (let made = 0; ;) {
    if (options.signal?.aborted) return { ok: false, stop: 'aborted', failure, attempts: made };
    const remainingMs = deadlineAt - clock.now();
    if (remainingMs <= 0) return { ok: false, stop: 'deadline', failure, attempts: made };
    made++;
    const outcome = await attempt(made, remainingMs);
    if (outcome.ok) return { ok: true, value: outcome.value, attempts: made };
    failure = outcome.failure;
    if (outcome.final) return { ok: false, stop: 'final', failure, attempts: made };
    if (made >= maxAttempts) return { ok: false, stop: 'attempts', failure, attempts: made };
    const delayMs = backoffDelay(options.backoff, made - 1, () => clock.random());
    // The next attempt could not even start before the deadline.
    if (delayMs >= deadlineAt - clock.now()) return { ok: false, stop: 'deadline', failure, attempts: made };
    await options.onRetry?.({ attempt: made, failure, delayMs });
    await clock.sleep(delayMs, options.signal);
  }
}
