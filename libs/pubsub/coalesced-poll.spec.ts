import { CoalescedPoll, ProbeResult } from './coalesced-poll';

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
});
