/** Where push stands, as the diagnostics report it (spec §3, pub/sub availability state). */
export const AVAILABILITY_STATES = ['unconfigured', 'construction_failed', 'idle', 'connected_unverified', 'reachable', 'unreachable', 'degraded'] as const;

export type Availability = (typeof AVAILABILITY_STATES)[number];

/**
 * Every move the adapter may make. `unconfigured` (no SERVICE_CACHE_URL) and
 * `construction_failed` (the client could not be built from the URL) are
 * final for the life of the process: both are configuration problems that a
 * restart with a corrected environment fixes, so retrying would only repeat
 * the failure. Push is used only in `reachable`.
 */
export const TRANSITIONS: Readonly<Record<Availability, readonly Availability[]>> = {
  unconfigured: [],
  construction_failed: [],
  // built, first connection not made yet
  idle: ['connected_unverified', 'unreachable'],
  // socket ready, no publish has gone through yet
  connected_unverified: ['reachable', 'degraded', 'unreachable'],
  reachable: ['degraded', 'unreachable'],
  // connected, but a publish failed or timed out, or the subscriber connection is down
  degraded: ['reachable', 'unreachable'],
  // connection lost or refused; the client reconnects with backoff
  unreachable: ['connected_unverified'],
};

export interface Transition {
  from: Availability;
  to: Availability;
  at: Date;
  reason: string;
}

const HISTORY = 32;

/**
 * The availability state and its recent moves. A move that the table does not
 * allow is refused (and counted), so a bug in the adapter cannot report a state
 * it never passed through.
 */
export class AvailabilityTracker {
  private current: Availability;
  private readonly moves: Transition[] = [];
  private readonly listeners = new Set<(t: Transition) => void>();
  refusedMoves = 0;

  constructor(
    initial: Availability,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.current = initial;
  }

  get state(): Availability {
    return this.current;
  }

  /** The last moves, oldest first (at most 32). */
  get history(): readonly Transition[] {
    return this.moves;
  }

  /** Moves to `to` when the table allows it; staying put is a no-op. Returns whether the state changed. */
  move(to: Availability, reason: string): boolean {
    if (to === this.current) return false;
    if (!TRANSITIONS[this.current].includes(to)) {
      this.refusedMoves += 1;
      return false;
    }
    const transition: Transition = { from: this.current, to, at: this.now(), reason };
    this.current = to;
    this.moves.push(transition);
    if (this.moves.length > HISTORY) this.moves.shift();
    for (const listener of this.listeners) listener(transition);
    return true;
  }

  onChange(listener: (t: Transition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
