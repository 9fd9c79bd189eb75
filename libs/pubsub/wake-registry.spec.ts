import { longPoll, WakeRegistry } from './wake-registry';

describe('wake registry and long poll', () => {
  test('a wake-up that lands while the reader is reading is not lost', async () => {
    const registry = new WakeRegistry();
    let reads = 0;
    const started = Date.now();
    const value = await longPoll({
      registry,
      keys: [WakeRegistry.key('t', 'x')],
      waitMs: 10_000,
      interval: () => 10_000,
      read: async () => {
        reads += 1;
        // The wake arrives during the first read, before the waiter sleeps.
        if (reads === 1) registry.wake(WakeRegistry.key('t', 'x'));
        return reads;
      },
      done: (n) => n >= 2,
    });
    expect(value).toBe(2);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(registry.size).toBe(0);
  });

  test('without a wake-up the reader reads every interval until the deadline; other tenants and topics do not wake it', async () => {
    const registry = new WakeRegistry();
    let reads = 0;
    const times: number[] = [];
    const poll = longPoll({
      registry,
      keys: [WakeRegistry.key('t', 'x')],
      waitMs: 1000,
      interval: () => 300,
      read: async () => {
        times.push(Date.now());
        return ++reads;
      },
      done: () => false,
    });
    registry.wake(WakeRegistry.key('other', 'x'));
    registry.wake(WakeRegistry.key('t', 'y'));
    await poll;
    // A busy machine delays timers (fewer reads), never adds any: at least the first read and one
    // interval read, at most one per interval plus the first and last.
    expect(reads).toBeGreaterThanOrEqual(2);
    expect(reads).toBeLessThanOrEqual(6);
    // The foreign wake-ups at the start caused no early read: the second read waited its interval.
    expect(times[1] - times[0]).toBeGreaterThanOrEqual(250);
  });

  test('wakeTenant and wakeAll wake the right waiters', async () => {
    const registry = new WakeRegistry();
    const a = registry.register([WakeRegistry.key('t1', 'x')]);
    const b = registry.register([WakeRegistry.key('t2', 'x')]);
    expect(registry.waiting).toBe(2);
    registry.wakeTenant('t1');
    expect(await a.wait(5000)).toBe(true);
    expect(await b.wait(50)).toBe(false);
    registry.wakeAll();
    expect(await b.wait(5000)).toBe(true);
    a.cancel();
    b.cancel();
    // Cancelling twice counts once.
    a.cancel();
    expect(registry.size).toBe(0);
    expect(registry.waiting).toBe(0);
  });
});
