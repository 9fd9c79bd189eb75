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

/**
 * Reads of different scopes fall due on a grid of this many milliseconds: those due in the same
 * slot start in the same turn of the event loop, so the database's read lanes carry them in one
 * write (and one wake-up of a backend) instead of one each. A scope keeps its own phase on the
 * grid, so the reads of many scopes stay spread over the interval in small groups, not one burst.
 */
export const POLL_SLOT_MS = 50;

interface Scope {
  probe: Probe;
  watchers: Set<Watcher>;
  timer?: NodeJS.Timeout;
  probing: boolean;
  /** The gate's token read just before the last read of the scope, that read's version, and when it started. */
  gated?: { token: string; version: number; at: number };
}

/**
 * A cheap sign of change in front of the reads (see `CoalescedPollOptions.gate`): for each scope
 * key, a token that moves whenever one of the scope's topics may have changed, read before the
 * scope's read, or undefined when it cannot be known now.
 */
export type Gate = (scopes: string[]) => Promise<(string | undefined)[]>;

export interface CoalescedPollOptions {
  /** Milliseconds between two reads of a scope (the scope key is given). */
  interval: (scope: string) => number;
  /** A read failed: the waiters keep waiting and the next interval reads again. */
  onError?: (scope: string, error: unknown) => void;
  /**
   * Asked, for every scope due in the same slot, before they are read: a scope whose token has not
   * moved since the one read before its last read, and whose waiters have all seen that read, is
   * not read this time. Every change must move the token after it is committed; a token that does
   * not move (the change's writer could not move it) is covered by `gateMaxMs`.
   */
  gate?: Gate;
  /** With `gate`: the longest a scope goes unread however still its token. */
  gateMaxMs?: number;
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
  /** Scopes due in this turn, waiting for one ask of the gate. */
  private due: [string, Scope][] = [];
  /** Scope reads made, and those the gate spared, since start. */
  readonly figures = { read: 0, skipped: 0 };

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
    scope.timer = setTimeout(() => this.fall(key, scope), slotDelay(this.options.interval(key)));
    // A watch never keeps a stopping process alive.
    scope.timer.unref();
  }

  /** A scope is due: read at once, or, behind a gate, after one ask for every scope due in this turn. */
  private fall(key: string, scope: Scope) {
    scope.timer = undefined;
    if (!this.options.gate) return void this.probe(key, scope);
    this.due.push([key, scope]);
    if (this.due.length === 1) setImmediate(() => void this.pass());
  }

  private async pass(): Promise<void> {
    const due = this.due;
    this.due = [];
    let tokens: (string | undefined)[] = [];
    try {
      tokens = await this.options.gate!(due.map(([key]) => key));
    } catch {
      // Unknown: every scope is read.
    }
    due.forEach(([key, scope], i) => {
      // Dropped, read or rescheduled meanwhile.
      if (this.scopes.get(key) !== scope || scope.timer || scope.probing) return;
      if (scope.watchers.size === 0) return this.drop(key, scope);
      const token = tokens[i];
      if (token !== undefined && this.still(scope, token)) {
        this.figures.skipped += 1;
        return this.schedule(key, scope);
      }
      void this.probe(key, scope, token);
    });
  }

  /** Nothing this scope's waiters have not seen can have changed: the token is the one read before the last read, which they all saw, and that read is recent enough. */
  private still(scope: Scope, token: string): boolean {
    const last = scope.gated;
    if (!last || last.token !== token || Date.now() - last.at >= (this.options.gateMaxMs ?? 0)) return false;
    for (const w of scope.watchers) if (w.seen < last.version) return false;
    return true;
  }

  private drop(key: string, scope: Scope) {
    clearTimeout(scope.timer);
    if (this.scopes.get(key) === scope) this.scopes.delete(key);
  }

  /** Reads the scope; `token` is the gate's, read just before (none: the next pass reads again). */
  private async probe(key: string, scope: Scope, token?: string): Promise<void> {
    scope.timer = undefined;
    scope.gated = undefined;
    const at = Date.now();
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
    this.figures.read += 1;
    try {
      const result = await scope.probe(since, [...topics]);
      if (token !== undefined) scope.gated = { token, version: result.version, at };
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

/**
 * The delay until the slot nearest to `interval` from now (rounded to the nearest slot, so a
 * scope read at its slot is read again one interval later, not one slot later each time).
 */
function slotDelay(interval: number, now = Date.now()): number {
  const slot = Math.min(POLL_SLOT_MS, interval);
  if (slot <= 0) return Math.max(interval, 0);
  return Math.max(Math.round((now + interval) / slot) * slot - now, 0);
}

function changedFor(w: Watcher, result: ProbeResult): boolean {
  if (result.changed === 'all') return result.version > w.seen;
  for (const topic of w.topics) {
    const at = result.changed.get(topic);
    if (at !== undefined && at > w.seen) return true;
  }
  return false;
}
