/**
 * Asks made in one turn of the event loop, answered together at its end: the first ask of a group
 * opens a batch, every ask of that group in the same turn joins it, and right after the turn's I/O
 * callbacks (`setImmediate`) one call of `answer` gets every distinct key of the batch and answers
 * them all. Many requests woken or arriving together so cost one statement instead of one each.
 *
 * - A key asked twice in one batch is answered once, to both.
 * - A key `answer` leaves out of its map is answered `undefined` (the caller gives the default).
 * - When `answer` fails, every ask of the batch fails with its error.
 * - `answer` runs in the async context of the batch's first ask (a tenant's, say), and gets the
 *   group's `context` as that ask gave it: the asks of one group share it by definition.
 */
export class TurnBatches<C, K, I, V> {
  private readonly open = new Map<string, { context: C; items: Map<K, I>; waiting: Map<K, Waiter<V>[]> }>();

  constructor(private readonly answer: (context: C, items: Map<K, I>) => Promise<Map<K, V>>) {}

  /** `item` under `key`, in the batch of `group`; `context` is what `answer` gets for the group. */
  ask(group: string, context: C, key: K, item: I): Promise<V | undefined> {
    let batch = this.open.get(group);
    if (!batch) {
      const opened = { context, items: new Map<K, I>(), waiting: new Map<K, Waiter<V>[]>() };
      batch = opened;
      this.open.set(group, opened);
      setImmediate(() => {
        this.open.delete(group);
        this.settle(opened.context, opened.items, opened.waiting);
      });
    }
    const { items, waiting } = batch;
    return new Promise((resolve, reject) => {
      const waiters = waiting.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else {
        items.set(key, item);
        waiting.set(key, [{ resolve, reject }]);
      }
    });
  }

  private settle(context: C, items: Map<K, I>, waiting: Map<K, Waiter<V>[]>): void {
    let answered: Promise<Map<K, V>>;
    try {
      answered = this.answer(context, items);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (answers) => {
        for (const [key, waiters] of waiting) for (const w of waiters) w.resolve(answers.get(key));
      },
      (error: unknown) => {
        for (const waiters of waiting.values()) for (const w of waiters) w.reject(error);
      },
    );
  }
}

interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}
