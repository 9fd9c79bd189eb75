import { CoalescedPoll, POLL_SLOT_MS, ProbeResult } from './coalesced-poll';

/** A scope whose changes the test writes: topic -> versions at which it changed. */
function scopeOf() {
  const changes: { topic: string; version: number }[] = [];
  let version = 0;
  const reads: { since: number; topics: string[] }[] = [];
  return {
    reads,
    changes,
    write(topic: string) {
      version += 1;
      changes.push({ topic, version });
      return version;
    },
    get version() {
      return version;
    },
    probe: async (since: number, topics: string[]): Promise<ProbeResult> => {
      reads.push({ since, topics });
      const changed = new Map<string, number>();
      for (const c of changes) if (c.version > since && topics.includes(c.topic)) changed.set(c.topic, c.version);
      return { version, changed };
    },
  };
}

describe('CoalescedPoll', () => {
  const poll = () => new CoalescedPoll({ interval: () => 60_000 });
  /** The fake clock's start in the timed tests: a multiple of the slot. */
  const START = 1_700_000_000_000;
  afterEach(() => jest.useRealTimers());

  test('one read serves every waiter of a scope, and wakes only those with a change newer than they saw', async () => {
    const p = poll();
    const scope = scopeOf();
    const woken: string[] = [];
    for (const name of ['a', 'b', 'c']) p.watch('t|s', scope.probe, [name, '*'], scope.version, () => woken.push(name));
    scope.write('b');
    await p.pollNow('t|s');
    expect(scope.reads).toHaveLength(1);
    expect(woken).toEqual(['b']);
    expect(p.watcherCount).toBe(2);
    scope.write('*');
    await p.pollNow('t|s');
    expect(scope.reads).toHaveLength(2);
    expect(woken.sort()).toEqual(['a', 'b', 'c']);
    expect(p.scopeCount).toBe(0);
  });

  test('a change older than what a waiter read does not wake it; one after its read always does, whenever the scope was read', async () => {
    const p = poll();
    const scope = scopeOf();
    scope.write('a'); // before the waiter's own read: it saw this one
    const woken: string[] = [];
    p.watch('t|s', scope.probe, ['a'], scope.version, () => woken.push('first'));
    await p.pollNow('t|s');
    expect(woken).toEqual([]);
    scope.write('a'); // after: a waiter joining now with an older version must still hear of it
    p.watch('t|s', scope.probe, ['a'], scope.version - 1, () => woken.push('late'));
    await p.pollNow('t|s');
    expect(woken.sort()).toEqual(['first', 'late']);
  });

  test('random writes and waiters: no wake-up lost, none for a waiter without news', async () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const p = poll();
    const scope = scopeOf();
    const topics = ['x', 'y', 'z', '*'];
    const waiting = new Map<number, { topics: string[]; seen: number; woken: boolean }>();
    for (let step = 0; step < 500; step++) {
      const action = rnd(3);
      if (action === 0) {
        const id = step;
        const w = { topics: [topics[rnd(3)], '*'], seen: scope.version, woken: false };
        waiting.set(id, w);
        p.watch('t|s', scope.probe, w.topics, w.seen, () => (w.woken = true));
      } else if (action === 1) {
        scope.write(topics[rnd(4)]);
      } else {
        await p.pollNow('t|s');
        for (const [id, w] of waiting) {
          // The read covered every write so far: woken exactly when one of them is news to it.
          const news = scope.changes.some((c) => c.version > w.seen && w.topics.includes(c.topic));
          expect(w.woken).toBe(news);
          if (w.woken) waiting.delete(id);
          else w.seen = scope.version;
        }
      }
    }
  });

  test('a failed read keeps every waiter waiting for the next one', async () => {
    const errors: unknown[] = [];
    const p = new CoalescedPoll({ interval: () => 60_000, onError: (_s, e) => errors.push(e) });
    let fail = true;
    const woken: string[] = [];
    const probe = async (): Promise<ProbeResult> => {
      if (fail) throw new Error('database away');
      return { version: 1, changed: 'all' };
    };
    p.watch('t|s', probe, ['a'], 0, () => woken.push('a'));
    await p.pollNow('t|s');
    expect(errors).toHaveLength(1);
    expect(woken).toEqual([]);
    fail = false;
    await p.pollNow('t|s');
    expect(woken).toEqual(['a']);
  });

  test('a waiter that stops watching leaves the scope, and the last one drops it', () => {
    const p = poll();
    const scope = scopeOf();
    const stop = p.watch('t|s', scope.probe, ['a'], 0, () => undefined);
    expect(p.scopeCount).toBe(1);
    stop();
    expect(p.scopeCount).toBe(0);
  });
  describe('reads of different scopes', () => {
    test('due in the same slot fall due together, keep their interval, and stay apart from the next slot', async () => {
      jest.useFakeTimers({ now: START });
      const reads: { scope: string; at: number }[] = [];
      const p = new CoalescedPoll({ interval: () => 1000 });
      const probeOf = (scope: string) => async (): Promise<ProbeResult> => {
        reads.push({ scope, at: Date.now() });
        return { version: 0, changed: new Map() };
      };
      p.watch('t1|s', probeOf('a'), ['x'], 0, () => undefined);
      await jest.advanceTimersByTimeAsync(POLL_SLOT_MS / 2 - 5);
      p.watch('t2|s', probeOf('b'), ['x'], 0, () => undefined); // the same slot, 20 ms later
      await jest.advanceTimersByTimeAsync(POLL_SLOT_MS / 2 + 10);
      p.watch('t3|s', probeOf('c'), ['x'], 0, () => undefined); // 55 ms after the first: the next slot
      await jest.advanceTimersByTimeAsync(3000);
      const at = (scope: string) => reads.filter((r) => r.scope === scope).map((r) => r.at - START);
      expect(at('a')).toEqual([1000, 2000, 3000]);
      expect(at('b')).toEqual([1000, 2000, 3000]);
      expect(at('c')).toEqual([1050, 2050, 3050]);
    });

    test('a scope is read within half a slot of its interval after it was first watched', async () => {
      for (const offset of [1, 17, 24, 26, 49]) {
        jest.useFakeTimers({ now: START + offset });
        const reads: number[] = [];
        const p = new CoalescedPoll({ interval: () => 1000 });
        p.watch(
          't|s',
          async () => {
            reads.push(Date.now() - START - offset);
            return { version: 0, changed: new Map() };
          },
          ['x'],
          0,
          () => undefined,
        );
        await jest.advanceTimersByTimeAsync(1100);
        expect(reads).toHaveLength(1);
        expect(Math.abs(reads[0] - 1000)).toBeLessThanOrEqual(POLL_SLOT_MS / 2);
        jest.useRealTimers();
      }
    });

    test('an interval shorter than a slot is kept as it is', async () => {
      jest.useFakeTimers({ now: START });
      const reads: number[] = [];
      const p = new CoalescedPoll({ interval: () => 10 });
      p.watch(
        't|s',
        async () => {
          reads.push(Date.now() - START);
          return { version: 0, changed: new Map() };
        },
        ['x'],
        0,
        () => undefined,
      );
      await jest.advanceTimersByTimeAsync(35);
      expect(reads).toEqual([10, 20, 30]);
    });
  });
  describe('behind a gate', () => {
    // The gate is asked in the turn after the timers that fell due (setImmediate): each check is made 10 ms past a whole second.

    /** A poll every second behind a gate whose tokens the test sets; counts the asks and the reads. */
    function gated(gateMaxMs = 10_000) {
      const tokens = new Map<string, string | undefined>();
      const asks: string[][] = [];
      let failing = false;
      const p = new CoalescedPoll({
        interval: () => 1000,
        gateMaxMs,
        gate: async (keys) => {
          asks.push(keys);
          if (failing) throw new Error('redis away');
          return keys.map((k) => tokens.get(k));
        },
      });
      return { p, tokens, asks, fail: (on: boolean) => (failing = on) };
    }

    test('a scope whose token has not moved is not read; one whose token moved is, and its waiter wakes', async () => {
      jest.useFakeTimers({ now: START });
      const { p, tokens } = gated();
      const scope = scopeOf();
      const woken: string[] = [];
      tokens.set('t|s', '1');
      p.watch('t|s', scope.probe, ['a'], scope.version, () => woken.push('a'));
      await jest.advanceTimersByTimeAsync(1010);
      expect(scope.reads).toHaveLength(1); // the first time: nothing read before to compare with
      await jest.advanceTimersByTimeAsync(5000);
      expect(scope.reads).toHaveLength(1);
      scope.write('a');
      tokens.set('t|s', '2');
      await jest.advanceTimersByTimeAsync(1000);
      expect(scope.reads).toHaveLength(2);
      expect(woken).toEqual(['a']);
    });

    test('a still scope is read again after gateMaxMs: a change whose token did not move is late, never lost', async () => {
      jest.useFakeTimers({ now: START });
      const { p, tokens } = gated(4000);
      const scope = scopeOf();
      const woken: string[] = [];
      tokens.set('t|s', '1');
      p.watch('t|s', scope.probe, ['a'], scope.version, () => woken.push('a'));
      await jest.advanceTimersByTimeAsync(1010);
      scope.write('a'); // its writer could not move the token
      await jest.advanceTimersByTimeAsync(3000);
      expect(woken).toEqual([]);
      await jest.advanceTimersByTimeAsync(1000);
      expect(scope.reads).toHaveLength(2);
      expect(woken).toEqual(['a']);
    });

    test('a waiter that joined with less than the last read saw has the scope read, token still or not', async () => {
      jest.useFakeTimers({ now: START });
      const { p, tokens } = gated();
      const scope = scopeOf();
      tokens.set('t|s', '1');
      const stale = scope.version;
      scope.write('b');
      p.watch('t|s', scope.probe, ['a'], scope.version, () => undefined);
      await jest.advanceTimersByTimeAsync(1010);
      expect(scope.reads).toHaveLength(1);
      // Its own read came before the change to 'b', which the scope's last read saw.
      const woken: string[] = [];
      p.watch('t|s', scope.probe, ['b'], stale, () => woken.push('late'));
      await jest.advanceTimersByTimeAsync(1000);
      expect(scope.reads).toHaveLength(2);
      expect(woken).toEqual(['late']);
      await jest.advanceTimersByTimeAsync(1000);
      expect(scope.reads).toHaveLength(2);
    });

    test('a gate that cannot say, or fails, leaves every scope read every interval', async () => {
      jest.useFakeTimers({ now: START });
      const { p, tokens, fail } = gated();
      const scope = scopeOf();
      p.watch('t|s', scope.probe, ['a'], scope.version, () => undefined);
      await jest.advanceTimersByTimeAsync(3010);
      expect(scope.reads).toHaveLength(3); // no token
      tokens.set('t|s', '1');
      fail(true);
      await jest.advanceTimersByTimeAsync(2000);
      expect(scope.reads).toHaveLength(5);
      fail(false);
      await jest.advanceTimersByTimeAsync(1010); // the first read with a token
      await jest.advanceTimersByTimeAsync(2000);
      expect(scope.reads).toHaveLength(6);
    });

    test('scopes due in the same slot share one ask of the gate', async () => {
      jest.useFakeTimers({ now: START });
      const { p, asks } = gated();
      const scopes = ['t1|s', 't2|s', 't3|s'].map((key) => ({ key, scope: scopeOf() }));
      for (const { key, scope } of scopes) p.watch(key, scope.probe, ['a'], 0, () => undefined);
      await jest.advanceTimersByTimeAsync(1010);
      expect(asks).toEqual([['t1|s', 't2|s', 't3|s']]);
      for (const { scope } of scopes) expect(scope.reads).toHaveLength(1);
    });
  });
});
