import type { CoalescedPoll, Probe } from './coalesced-poll';

/** One pending wait, registered before the caller reads the database so no wake-up can slip between. */
export interface Waiter {
  /** Resolves true when woken (now or earlier), false when `ms` passed first. */
  wait(ms: number): Promise<boolean>;
  /** Wakes this waiter alone (its scope's shared read found news for it). */
  wake(): void;
  cancel(): void;
}

interface Entry {
  woken: boolean;
  resolve?: (woken: boolean) => void;
  timer?: NodeJS.Timeout;
}

/**
 * In-process waiters keyed by `<tenant>|<topic>`. A wake-up from this process
 * or from Redis calls `wake`; an availability change calls `wakeAll`, so every
 * waiter re-reads the database and picks the poll interval of the new state.
 */
export class WakeRegistry {
  private readonly byKey = new Map<string, Set<Entry>>();
  /** Registered and not yet cancelled: counted as they come and go, not by walking every key (a metric and the benchmark ask often). */
  private registered = 0;

  static key(tenantId: string, topic: string): string {
    return `${tenantId}|${topic}`;
  }

  /** The tenant of a key made by `key`. */
  static tenantOf(key: string): string {
    return key.slice(0, key.indexOf('|'));
  }

  register(keys: string[]): Waiter {
    const entry: Entry = { woken: false };
    this.registered++;
    let cancelled = false;
    for (const key of keys) {
      const set = this.byKey.get(key) ?? new Set<Entry>();
      set.add(entry);
      this.byKey.set(key, set);
    }
    const cancel = () => {
      if (!cancelled) this.registered--;
      cancelled = true;
      if (entry.timer) clearTimeout(entry.timer);
      for (const key of keys) {
        const set = this.byKey.get(key);
        set?.delete(entry);
        if (set?.size === 0) this.byKey.delete(key);
      }
      entry.resolve?.(entry.woken);
      entry.resolve = undefined;
    };
    return {
      wait: (ms) =>
        new Promise<boolean>((resolve) => {
          if (entry.woken || ms <= 0) return resolve(entry.woken);
          entry.resolve = resolve;
          entry.timer = setTimeout(() => {
            entry.resolve = undefined;
            resolve(false);
          }, ms);
          // A wait never keeps a stopping process alive.
          entry.timer.unref();
        }),
      wake: () => fire(entry),
      cancel,
    };
  }

  wake(key: string): void {
    for (const entry of this.byKey.get(key) ?? []) fire(entry);
  }

  /** Wakes every waiter of one tenant (its push was paused or resumed). */
  wakeTenant(tenantId: string): void {
    for (const [key, set] of this.byKey) if (key.startsWith(`${tenantId}|`)) set.forEach(fire);
  }

  wakeAll(): void {
    for (const set of this.byKey.values()) set.forEach(fire);
  }

  /** Waits currently registered, each once whatever the number of its keys. */
  get waiting(): number {
    return this.registered;
  }

  /** Waiters currently registered (a waiter on several keys counts once per key). */
  get size(): number {
    let n = 0;
    for (const set of this.byKey.values()) n += set.size;
    return n;
  }
}

function fire(entry: Entry) {
  entry.woken = true;
  if (entry.timer) clearTimeout(entry.timer);
  const resolve = entry.resolve;
  entry.resolve = undefined;
  resolve?.(true);
}

export interface LongPollOptions<T> {
  registry: WakeRegistry;
  /** Registry keys whose wake-up means "read again". */
  keys: string[];
  /** How long to wait in total; 0 reads once. */
  waitMs: number;
  /** Reads the database. */
  read: () => Promise<T>;
  /** Whether a read is the answer (messages arrived, the question was answered). */
  done: (value: T) => boolean;
  /** Milliseconds until the next read when nobody wakes the waiter: the safety poll while push is live, else the poll interval. */
  interval: () => number;
  /**
   * Instead of reading on its own every interval, the waiter joins the shared read of its scope
   * (one read per scope and interval, see CoalescedPoll), which wakes it when one of its topics
   * changed after the version its own read saw.
   */
  shared?: {
    poll: CoalescedPoll;
    scope: string;
    probe: Probe;
    /** The topics the shared read reports changes of (the keys without the tenant). */
    topics: string[];
    /** The version a read of this waiter saw. */
    version: (value: T) => number;
  };
  /** True once the process is stopping: the wait answers with its latest read instead of waiting on. */
  stopping?: () => boolean;
}

/**
 * Reads until `done` or the deadline. Each round registers the waiter first,
 * then reads, then sleeps until a wake-up or the interval, so a wake-up that
 * lands during the read is never lost. Without push, the interval is the
 * polling fallback: slower, never wrong.
 */
export async function longPoll<T>(options: LongPollOptions<T>): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  const shared = options.shared;
  for (;;) {
    const waiter = options.registry.register(options.keys);
    let unwatch: (() => void) | undefined;
    try {
      const value = await options.read();
      const left = deadline - Date.now();
      if (options.done(value) || left <= 0 || options.stopping?.()) return value;
      if (shared) {
        unwatch = shared.poll.watch(shared.scope, shared.probe, shared.topics, shared.version(value), () => waiter.wake());
        await waiter.wait(left);
      } else {
        await waiter.wait(Math.min(options.interval(), left));
      }
    } finally {
      unwatch?.();
      waiter.cancel();
    }
  }
}
