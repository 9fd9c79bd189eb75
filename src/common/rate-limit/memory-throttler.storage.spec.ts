import { MemoryThrottlerStorage } from './memory-throttler.storage';

const MINUTE = 60_000;

describe('MemoryThrottlerStorage', () => {
  let now: number;
  let storage: MemoryThrottlerStorage;
  const hit = (key = 'token-a', limit = 3, blockDuration = MINUTE, ttl = MINUTE) => storage.increment(key, ttl, limit, blockDuration, 'default');

  beforeEach(() => {
    now = 1_000_000;
    storage = new MemoryThrottlerStorage({ now: () => now });
  });
  afterEach(() => storage.onApplicationShutdown());

  test('counts the hits of a window and says when it ends', async () => {
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
    now += 20_500;
    expect(await hit()).toEqual({ totalHits: 2, timeToExpire: 40, isBlocked: false, timeToBlockExpire: 0 });
  });

  test('the hit past the limit is blocked for the block duration, with its seconds left', async () => {
    for (let i = 0; i < 3; i++) expect((await hit()).isBlocked).toBe(false);
    now += 1_000;
    expect(await hit('token-a', 3, 30_000)).toEqual({ totalHits: 4, timeToExpire: 59, isBlocked: true, timeToBlockExpire: 30 });
    now += 10_000;
    expect(await hit('token-a', 3, 30_000)).toEqual({ totalHits: 5, timeToExpire: 49, isBlocked: true, timeToBlockExpire: 20 });
  });

  test('keys and throttler names count apart', async () => {
    for (let i = 0; i < 4; i++) await hit('token-a');
    expect((await hit('token-a')).isBlocked).toBe(true);
    expect(await hit('token-b')).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await storage.increment('token-a', MINUTE, 3, MINUTE, 'auth-failures')).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  test('a window that has ended starts its count afresh', async () => {
    await hit();
    await hit();
    now += MINUTE;
    expect(await hit()).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 });
  });

  test('a block outlives its window, and once both are over the key is allowed again', async () => {
    for (let i = 0; i < 4; i++) await hit('token-a', 3, 90_000);
    now += MINUTE;
    // The window ended, the block has 30 s left: still refused, counted in a new window.
    expect(await hit('token-a', 3, 90_000)).toEqual({ totalHits: 1, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 30 });
    now += 30_000;
    expect(await hit('token-a', 3, 90_000)).toMatchObject({ totalHits: 2, isBlocked: false, timeToBlockExpire: 0 });
  });

  test('a block shorter than the window is set again while the window is over the limit', async () => {
    for (let i = 0; i < 4; i++) await hit('token-a', 3, 10_000);
    now += 10_000;
    expect(await hit('token-a', 3, 10_000)).toEqual({ totalHits: 5, timeToExpire: 50, isBlocked: true, timeToBlockExpire: 10 });
  });

  test('without a block duration, hits over the limit are refused until the window ends', async () => {
    for (let i = 0; i < 3; i++) await hit('token-a', 3, 0);
    now += 15_000;
    expect(await hit('token-a', 3, 0)).toEqual({ totalHits: 4, timeToExpire: 45, isBlocked: true, timeToBlockExpire: 45 });
    now += 45_000;
    expect(await hit('token-a', 3, 0)).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  test('a sweep drops the counters whose window and block are over, and only those', async () => {
    await hit('idle');
    for (let i = 0; i < 4; i++) await hit('blocked', 3, 2 * MINUTE);
    now += 30_000;
    await hit('recent');
    now += 30_000;
    storage.sweep();
    expect(storage.size).toBe(2);
    now += MINUTE;
    storage.sweep();
    expect(storage.size).toBe(0);
  });

  test('the answer of a hit does not depend on how many hits the window holds', async () => {
    const limit = 1_000_000;
    for (let i = 0; i < 200_000; i++) await storage.increment('busy', MINUTE, limit, MINUTE, 'default');
    expect(await storage.increment('busy', MINUTE, limit, MINUTE, 'default')).toMatchObject({ totalHits: 200_001, isBlocked: false });
    expect(storage.size).toBe(1);
  });
});
