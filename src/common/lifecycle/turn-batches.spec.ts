import { AsyncLocalStorage } from 'node:async_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { TurnBatches } from './turn-batches';

describe('TurnBatches', () => {
  /** A batcher whose answer doubles each item, recording each call. */
  function doubling() {
    const calls: { context: string; items: [string, number][] }[] = [];
    const batches = new TurnBatches<string, string, number, number>(async (context, items) => {
      calls.push({ context, items: [...items] });
      return new Map([...items].filter(([key]) => key !== 'missing').map(([key, item]) => [key, item * 2]));
    });
    return { batches, calls };
  }

  test('the asks of one group in one turn are answered by one call, each with its own value', async () => {
    const { batches, calls } = doubling();
    const answers = await Promise.all([batches.ask('g', 'first', 'a', 1), batches.ask('g', 'second', 'b', 2), batches.ask('g', 'third', 'missing', 3)]);
    expect(answers).toEqual([2, 4, undefined]);
    // The context is the first ask's; a key the answer leaves out is answered undefined.
    expect(calls).toEqual([
      {
        context: 'first',
        items: [
          ['a', 1],
          ['b', 2],
          ['missing', 3],
        ],
      },
    ]);
  });

  test('a key asked twice in one batch is asked of the answer once and answered to both', async () => {
    const { batches, calls } = doubling();
    expect(await Promise.all([batches.ask('g', 'c', 'a', 1), batches.ask('g', 'c', 'a', 5)])).toEqual([2, 2]);
    expect(calls).toEqual([{ context: 'c', items: [['a', 1]] }]);
  });

  test('groups are answered apart, and asks of a later turn make a batch of their own', async () => {
    const { batches, calls } = doubling();
    const first = Promise.all([batches.ask('g1', 'one', 'a', 1), batches.ask('g2', 'two', 'a', 10)]);
    await nextTurn();
    const later = batches.ask('g1', 'three', 'a', 100);
    expect(await first).toEqual([2, 20]);
    expect(await later).toBe(200);
    expect(calls).toEqual([
      { context: 'one', items: [['a', 1]] },
      { context: 'two', items: [['a', 10]] },
      { context: 'three', items: [['a', 100]] },
    ]);
  });

  test('a failed answer fails every ask of its batch, whether it rejects or throws', async () => {
    const rejecting = new TurnBatches<null, string, number, number>(() => Promise.reject(new Error('down')));
    await expect(Promise.all([rejecting.ask('g', null, 'a', 1), rejecting.ask('g', null, 'b', 2)])).rejects.toThrow('down');
    const throwing = new TurnBatches<null, string, number, number>(() => {
      throw new Error('thrown');
    });
    const asks = [throwing.ask('g', null, 'a', 1), throwing.ask('g', null, 'b', 2)];
    for (const ask of asks) await expect(ask).rejects.toThrow('thrown');
  });

  test("the answer runs in the async context of the batch's first ask", async () => {
    const storage = new AsyncLocalStorage<string>();
    const seen: (string | undefined)[] = [];
    const batches = new TurnBatches<null, string, number, number>(async (_none, items) => {
      seen.push(storage.getStore());
      return new Map([...items]);
    });
    await Promise.all([storage.run('first', () => batches.ask('g', null, 'a', 1)), storage.run('second', () => batches.ask('g', null, 'b', 2))]);
    expect(seen).toEqual(['first']);
  });
});
