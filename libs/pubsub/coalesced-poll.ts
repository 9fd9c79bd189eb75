/**
 * What one read of a scope (a project's messages, a tenant's questions) tells every waiter of it:
 * the topics that changed after `since` up to `version`, each with the version of its latest
 * change, or `'all'` when there were too many to list (every waiter that has not seen `version`
 * reads again).
 */
export interface ProbeResult {
  version: number;
  changed: ReadonlyMap<string, number> | 'all';
}

/**
 * The one read of a scope. `since` is the oldest version any of its waiters has seen, `topics`
 * every topic they wait on. It must report every change of those topics in (since, version].
 */
export type Probe = (since: number, topics: string[]) => Promise<ProbeResult>;

interface Watcher {
  topics: string[];
  /** The version the waiter's own read saw: changes up to it are in what it read. */
  seen: number;
  wake: () => void;
}

interface Scope {
  probe: Probe;
  watchers: Set<Watcher>;
  timer?: NodeJS.Timeout;
  probing: boolean;
}

export interface CoalescedPollOptions {
  /** Milliseconds between two reads of a scope (the scope key is given). */
  interval: (scope: string) => number;
  /** A read failed: the waiters keep waiting and the next interval reads again. */
  onError?: (scope: string, error: unknown) => void;
}

/**
 * Polling that costs one read per scope and interval, however many wait in it. A waiter reads
 * its own answer once, notes the version that read saw, and joins its scope; every interval the
 * scope's one read (the probe) lists what changed since the oldest version any waiter saw, and
 * only waiters with a change on one of their topics newer than what they saw are woken, to read
 * their own answer again. The others now have seen the probe's version. Nothing changed: no
 * waiter reads at all.
 *
 * No change is lost: a waiter joins with the version of its own read, so a change committed after
 * that read has a newer version and the next probe reports it, whenever the scope was last read.
 */
export class CoalescedPoll {
  private readonly scopes = new Map<string, Scope>();

  constructor(private readonly options: CoalescedPollOptions) {}

  /**
   * Watches `topics` of `scope` from version `seen` on; `wake` is called (once) when one of them
   * changes after it. The probe of the first watcher of a scope serves every later one. Returns
   * the function that stops watching.
   */
  watch(scope: string, probe: Probe, topics: string[], seen: number, wake: () => void): () => void {
    let entry = this.scopes.get(scope);
    if (!entry) {
      entry = { probe, watchers: new Set(), probing: false };
      this.scopes.set(scope, entry);
      this.schedule(scope, entry);
    }
    const watcher: Watcher = { topics, seen, wake };
    entry.watchers.add(watcher);
    const owner = entry;
    return () => {
      owner.watchers.delete(watcher);
      if (owner.watchers.size === 0 && !owner.probing) this.drop(scope, owner);
    };
  }

  /** Reads every scope again after its (possibly new) interval: the poll interval changed. */
  reschedule(): void {
    for (const [key, scope] of this.scopes) {
      clearTimeout(scope.timer);
      scope.timer = undefined;
      if (!scope.probing) this.schedule(key, scope);
    }
  }

  /** Scopes being watched (each read once per interval). */
  get scopeCount(): number {
    return this.scopes.size;
  }

  /** Waiters watching, over every scope. */
  get watcherCount(): number {
    let n = 0;
    for (const scope of this.scopes.values()) n += scope.watchers.size;
    return n;
  }

  /** Reads one scope now (tests; the timer does this every interval). */
  async pollNow(scope: string): Promise<void> {
    const entry = this.scopes.get(scope);
    if (entry && !entry.probing) {
      clearTimeout(entry.timer);
      await this.probe(scope, entry);
    }
  }

  private schedule(key: string, scope: Scope) {
    scope.timer = setTimeout(() => void this.probe(key, scope), this.options.interval(key));
    // A watch never keeps a stopping process alive.
    scope.timer.unref();
  }

  private drop(key: string, scope: Scope) {
    clearTimeout(scope.timer);
    if (this.scopes.get(key) === scope) this.scopes.delete(key);
  }

  private async probe(key: string, scope: Scope): Promise<void> {
    scope.timer = undefined;
    if (scope.watchers.size === 0) return this.drop(key, scope);
    // Only waiters present before the read are judged by it; one joining meanwhile waits for the next.
    const judged = [...scope.watchers];
    let since = Infinity;
    const topics = new Set<string>();
    for (const w of judged) {
      since = Math.min(since, w.seen);
      for (const t of w.topics) topics.add(t);
    }
    scope.probing = true;
    try {
      const result = await scope.probe(since, [...topics]);
      for (const w of judged) {
        if (!scope.watchers.has(w)) continue;
        if (changedFor(w, result)) {
          scope.watchers.delete(w);
          w.wake();
        } else if (result.version > w.seen) {
          w.seen = result.version;
        }
      }
    } catch (error) {
      this.options.onError?.(key, error);
    } finally {
      scope.probing = false;
    }
    if (scope.watchers.size === 0) this.drop(key, scope);
    else this.schedule(key, scope);
  }
}

function changedFor(w: Watcher, result: ProbeResult): boolean {
  if (result.changed === 'all') return result.version > w.seen;
  for (const topic of w.topics) {
    const at = result.changed.get(topic);
    if (at !== undefined && at > w.seen) return true;
  }
  return false;
}
