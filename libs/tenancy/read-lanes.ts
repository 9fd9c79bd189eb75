import type { Socket } from 'node:net';
import type { Pool, PoolClient, QueryResult, Submittable } from 'pg';
import { ReadResult, ReadScope, ScopedRead } from './scoped-read';

/**
 * How many statements may be in flight on the lane gathering this turn's write
 * before the next one looks for another lane: enough to carry a burst of
 * requests in one write, few enough that a slow statement holds up only a
 * small batch behind it.
 */
const BATCH_LIMIT = 16;

/** invalid_sql_statement_name; feature_not_supported ("cached plan must not change result type"). */
const RETRIED = new Set(['26000', '0A000']);

interface Lane {
  client: Pipelinable;
  inFlight: number;
  released: boolean;
  corked: boolean;
  onError: (error: Error) => void;
}

/**
 * pg's client switches to pipelining with this flag, which it reads at each
 * send (typed read-only: pg is pinned and test/library-contracts.spec.ts checks
 * it); its connection writes to `stream`, the socket.
 */
type Pipelinable = PoolClient & { pipeline: boolean; connection: { stream: Socket } };

/**
 * Read statements that are each a whole implicit transaction (they carry their
 * own `SET LOCAL` scoping, so nothing outlives them on the connection) share a
 * few connections borrowed from the pool, pipelined: a statement is written at
 * once, behind those still being answered, instead of waiting for a connection
 * of its own. Postgres answers them in order. Under load this saves most of a
 * read's cost: the connection's backend is usually still awake when the next
 * statement arrives, and no pool checkout happens per read.
 *
 * The lanes are pool connections like any other, so the pool's size still bounds
 * the connections; at most `maxLanes` are held, and each goes back to the pool
 * once nothing is in flight on it. A statement joins the lane already gathering
 * a write in this turn of the event loop (up to `BATCH_LIMIT` in flight there):
 * one socket write and one wake-up of one backend then carry many statements,
 * which saves more, on both sides, than spreading them over backends gains on a
 * busy machine. Otherwise it takes an idle lane, else borrows another
 * connection if fewer than `maxLanes` are held and the pool has one to spare at
 * once, else joins the least busy lane.
 */
export class ReadLanes {
  private readonly lanes: Lane[] = [];
  private readonly opening = new Set<Promise<Lane>>();

  constructor(
    private readonly pool: Pool,
    private readonly maxLanes: number,
  ) {}

  /** How many pool connections the lanes hold now (for tests and diagnostics). */
  get held(): number {
    return this.lanes.length;
  }

  /** One statement as text (a simple-protocol message, which may hold several). */
  query(text: string): Promise<QueryResult | QueryResult[]> {
    return this.onLane((client) => client.query(text) as Promise<QueryResult | QueryResult[]>);
  }

  /**
   * One read statement of a tenant, scoped by `scope`, both as prepared
   * statements (`ScopedRead`). A read that met a statement gone from its
   * connection (the read that parsed it failed first) or re-planned to another
   * result shape is sent once more, parsed afresh.
   */
  async read(scope: ReadScope, text: string, values?: unknown[]): Promise<ReadResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.onLane((client) => {
          const read = new ScopedRead(scope, text, values, client);
          const done = new Promise<ReadResult>((resolve, reject) => {
            read.callback = (error, result) => (error ? reject(error) : resolve(result as ReadResult));
          });
          client.query(read as unknown as Submittable);
          return done;
        });
        return answer;
      } catch (error) {
        if (attempt === 1 && RETRIED.has((error as { code?: string }).code ?? '')) continue;
        throw error;
      }
    }
  }

  private async onLane<T>(send: (client: Pipelinable) => Promise<T>): Promise<T> {
    const picked = this.pick();
    const lane = picked ? this.take(picked) : await this.laneFor();
    try {
      return await send(lane.client);
    } finally {
      lane.inFlight--;
      if (lane.inFlight === 0) setImmediate(() => this.releaseIfIdle(lane));
    }
  }

  /**
   * `lane` carries one more statement. Counted as soon as the lane is chosen, so
   * that the next statement's choice sees it.
   */
  private take(lane: Lane): Lane {
    lane.inFlight++;
    this.gather(lane);
    return lane;
  }

  /**
   * Statements issued in the same turn of the event loop (many requests are read
   * off their sockets in one turn under load) leave in one write: the socket is
   * corked until the turn's I/O callbacks have run.
   */
  private gather(lane: Lane) {
    if (lane.corked) return;
    const socket = lane.client.connection.stream;
    lane.corked = true;
    socket.cork();
    setImmediate(() => {
      lane.corked = false;
      socket.uncork();
    });
  }

  /**
   * The lane gathering this turn's write, if it has room; else the least busy
   * lane, unless it is busy and the pool can lend another connection at once:
   * then none, and the caller borrows one.
   */
  private pick(): Lane | undefined {
    let best: Lane | undefined;
    for (const lane of this.lanes) {
      if (lane.corked && lane.inFlight < BATCH_LIMIT) return lane;
      if (!best || lane.inFlight < best.inFlight) best = lane;
    }
    if (best && (best.inFlight === 0 || !this.canGrow())) return best;
    return undefined;
  }

  private canGrow(): boolean {
    if (this.lanes.length + this.opening.size >= this.maxLanes) return false;
    const pool = this.pool;
    return pool.waitingCount === 0 && (pool.idleCount > 0 || pool.totalCount < (pool.options.max ?? 10));
  }

  /**
   * A lane, already taken, for a statement that found none: the one being
   * borrowed, if any (statements arriving while it is borrowed travel together
   * on it), else a new one.
   */
  private async laneFor(): Promise<Lane> {
    for (;;) {
      if (this.opening.size === 0 && this.lanes.length < this.maxLanes) return this.open();
      if (this.opening.size > 0) await Promise.race(this.opening).catch(() => undefined);
      const lane = this.pick();
      if (lane) return this.take(lane);
    }
  }

  private async open(): Promise<Lane> {
    const borrowing = this.borrow();
    this.opening.add(borrowing);
    try {
      return await borrowing;
    } finally {
      this.opening.delete(borrowing);
    }
  }

  private async borrow(): Promise<Lane> {
    const client = (await this.pool.connect()) as Pipelinable;
    const lane: Lane = { client, inFlight: 0, released: false, corked: false, onError: () => undefined };
    // A connection that fails while held: pg fails every statement sent on it;
    // the connection is dropped, not returned to the pool.
    lane.onError = (error) => this.release(lane, error);
    client.on('error', lane.onError);
    client.pipeline = true;
    this.lanes.push(lane);
    return this.take(lane); // for the statement that borrowed it
  }

  private releaseIfIdle(lane: Lane) {
    if (lane.inFlight === 0) this.release(lane);
  }

  private release(lane: Lane, error?: Error) {
    if (lane.released) return;
    lane.released = true;
    const index = this.lanes.indexOf(lane);
    if (index !== -1) this.lanes.splice(index, 1);
    lane.client.removeListener('error', lane.onError);
    lane.client.pipeline = false;
    lane.client.release(error);
  }
}
