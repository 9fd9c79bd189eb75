import { backoffDelay } from './backoff';
import { AttemptOutcome, retry, RetryClock } from './retry';

/** A clock whose sleeps only move its time forward. */
function fakeClock(start = 1_000, random = () => 0): RetryClock & { slept: number[] } {
  let now = start;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    random,
  };
}

const failing = (failure = 'down'): AttemptOutcome<never, string> => ({ ok: false, failure });

describe('backoffDelay', () => {
  it('doubles from the first wait unless another factor is given', () => {
    expect([0, 1, 2, 3].map((n) => backoffDelay({ firstMs: 250 }, n))).toEqual([250, 500, 1000, 2000]);
    expect([0, 1, 2].map((n) => backoffDelay({ firstMs: 100, factor: 3 }, n))).toEqual([100, 300, 900]);
  });

  it('never waits longer than the ceiling, even after very many retries', () => {
    expect([3, 4, 10, 5000].map((n) => backoffDelay({ firstMs: 250, maxMs: 2000 }, n))).toEqual([2000, 2000, 2000, 2000]);
  });

  it('spreads a wait inside the jitter range and rounds it to whole milliseconds', () => {
    const backoff = { firstMs: 250, jitter: [-0.25, 0.25] as const };
    expect(backoffDelay(backoff, 0, () => 0)).toBe(188);
    expect(backoffDelay(backoff, 0, () => 0.5)).toBe(250);
    expect(backoffDelay(backoff, 0, () => 1)).toBeLessThan(313);
    expect(backoffDelay(backoff, 0, () => -5)).toBe(188);
  });
});

describe('retry until a value or the last attempt', () => {
  it('answers the first value and makes no more attempts', async () => {
    const clock = fakeClock();
    const calls: number[] = [];
    const result = await retry<string, string>(
      async (n) => {
        calls.push(n);
        return n < 3 ? failing() : { ok: true, value: 'done' };
      },
      { backoff: { firstMs: 100 }, clock },
    );
    expect(result).toEqual({ ok: true, value: 'done', attempts: 3 });
    expect(calls).toEqual([1, 2, 3]);
    expect(clock.slept).toEqual([100, 200]);
  });

  it('stops when the attempts are used up, with the last failure', async () => {
    const clock = fakeClock();
    const result = await retry<never, string>(async (n) => failing(`failure ${n}`), { backoff: { firstMs: 10 }, attempts: 3, clock });
    expect(result).toEqual({ ok: false, stop: 'attempts', failure: 'failure 3', attempts: 3 });
    expect(clock.slept).toEqual([10, 20]);
  });

  it('stops at once on a final failure', async () => {
    const clock = fakeClock();
    const result = await retry<never, string>(async () => ({ ok: false, failure: 'refused', final: true }), { backoff: { firstMs: 10 }, clock });
    expect(result).toEqual({ ok: false, stop: 'final', failure: 'refused', attempts: 1 });
    expect(clock.slept).toEqual([]);
  });

  it('lets an exception of an attempt through without trying again', async () => {
    let calls = 0;
    const attempt = async (): Promise<AttemptOutcome<never, string>> => {
      calls++;
      throw new Error('broken');
    };
    await expect(retry(attempt, { backoff: { firstMs: 10 }, clock: fakeClock() })).rejects.toThrow('broken');
    expect(calls).toBe(1);
  });

  it('makes at least one attempt even when asked for none', async () => {
    const result = await retry(async () => failing(), { backoff: { firstMs: 10 }, attempts: 0, clock: fakeClock() });
    expect(result).toMatchObject({ ok: false, stop: 'attempts', attempts: 1 });
  });
});

describe('retry with a deadline, a signal or a listener', () => {
  it('does not begin a wait that would last until the deadline, and tells each attempt the time left', async () => {
    const clock = fakeClock(0);
    const remaining: number[] = [];
    const result = await retry<never, string>(
      async (_n, remainingMs) => {
        remaining.push(remainingMs);
        return failing();
      },
      { backoff: { firstMs: 100 }, deadlineAt: 350, clock },
    );
    // Attempts at 0 and 100; the next wait (200) would end at 300 < 350, the one after (400) past it.
    expect(remaining).toEqual([350, 250, 50]);
    expect(result).toEqual({ ok: false, stop: 'deadline', failure: 'down', attempts: 3 });
    expect(clock.slept).toEqual([100, 200]);
  });

  it('makes no attempt when the deadline has already passed', async () => {
    const result = await retry(async () => failing(), { backoff: { firstMs: 10 }, deadlineAt: 1_000, clock: fakeClock(1_000) });
    expect(result).toEqual({ ok: false, stop: 'deadline', failure: undefined, attempts: 0 });
  });

  it('tells onRetry of every wait before it begins', async () => {
    const clock = fakeClock();
    const heard: unknown[] = [];
    await retry<never, string>(async (n) => failing(`f${n}`), {
      backoff: { firstMs: 50, maxMs: 80 },
      attempts: 3,
      clock,
      onRetry: (r) => void heard.push({ ...r, sleptBefore: clock.slept.length }),
    });
    expect(heard).toEqual([
      { attempt: 1, failure: 'f1', delayMs: 50, sleptBefore: 0 },
      { attempt: 2, failure: 'f2', delayMs: 80, sleptBefore: 1 },
    ]);
  });

  it('ends a real wait as soon as the signal is aborted, and starts no further attempt', async () => {
    const controller = new AbortController();
    let calls = 0;
    const started = Date.now();
    setTimeout(() => controller.abort(), 50);
    const result = await retry<never, string>(
      async () => {
        calls++;
        return failing();
      },
      { backoff: { firstMs: 60_000 }, signal: controller.signal },
    );
    expect(result).toEqual({ ok: false, stop: 'aborted', failure: 'down', attempts: 1 });
    expect(calls).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
