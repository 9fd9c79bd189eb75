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

/**
 * How long a lane keeps its connection after its last statement has been
 * answered: long enough that a lane outlives the gaps between requests under
 * load (and so stays with the tenants it met), short enough that a pool being
 * closed waits little for it.
 */
export const LANE_IDLE_MS = 100;

/** invalid_sql_statement_name; feature_not_supported ("cached plan must not change result type"). */
const RETRIED = new Set(['26000', '0A000']);

interface Lane {
  client: Pipelinable;
  inFlight: number;
  /** Statements in flight here per tenant (keyed by its read scope's search path). */
  tenants: Map<string, number>;
  /** When a statement here last finished, or the first of the ones in flight was sent. */
  progressAt: number;
  /** Set while the lane is idle: returns it to the pool once idle for `LANE_IDLE_MS`. */
  idleTimer: NodeJS.Timeout | undefined;
  /** The tenants whose statements its connection has carried, as this or an earlier lane (`ReadLanes.met`). */
  met: Set<string>;
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
 * once nothing has been in flight on it for `LANE_IDLE_MS`. A statement joins
 * the lane already gathering a write in this turn of the event loop (up to `BATCH_LIMIT` in flight there):
 * one socket write and one wake-up of one backend then carry many statements,
 * which saves more, on both sides, than spreading them over backends gains on a
 * busy machine. Otherwise it takes an idle lane, else borrows another
 * connection if fewer than `maxLanes` are held and the pool has one to spare at
 * once, else joins the least busy lane.
 *
 * A tenant's statements go back to a connection that has carried its statements
 * before, when one is held and has room, even if another lane is gathering this
 * turn's write. A backend reading a schema for the first time builds its
 * catalog entries for that schema's tables and opens their files. Over many
 * tenants, reads sent to whichever lane was gathering made every backend pay
 * that for every tenant; kept on the connections that met them, they make each
 * backend meet only its share of the tenants.
 * Where every lane has met every tenant (few tenants) this changes nothing.
 *
 * Fair share: one tenant's statements are in flight on at most `tenantLanes`
 * lanes at once; beyond that they queue behind its own on those lanes. A tenant
 * sending slow reads so blocks its own lanes, and the others' statements, which
 * go to the least busy lanes, keep moving on the rest.
 *
 * A lane whose server answers nothing for `queryTimeoutMs` while statements are
 * in flight on it (a frozen server, a dead network) is cut: its connection is
 * destroyed, so every statement on it fails at once, and the pool drops it. A
 * slow statement does not trip it, because the server's own statement timeout
 * (shorter) ends it, and a statement queued behind others on a busy lane is not
 * timed from when it was written, but by the lane's progress.
 */
export class ReadLanes {
  private readonly lanes: Lane[] = [];
  private readonly opening = new Set<Promise<Lane>>();
  /** Per tenant: the lanes it has statements in flight on. */
  private readonly lanesHeld = new Map<string, number>();
  /**
   * Per pool connection: the tenants whose statements it has carried as a lane. Kept with the
   * connection (a connection the pool closes takes its entry with it), as its backend keeps their
   * catalog entries.
   */
  private readonly met = new WeakMap<PoolClient, Set<string>>();
  /** Checks the lanes' progress while any is held (`queryTimeoutMs` set). */
  private watchdog: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly maxLanes: number,
    private readonly tenantLanes = maxLanes,
    private readonly queryTimeoutMs = 0,
    /** Reads as named prepared statements (`ScopedRead`); false: unnamed, parsed every time. */
    private readonly prepared = true,
  ) {}

  /** How many pool connections the lanes hold now (for tests and diagnostics). */
  get held(): number {
    return this.lanes.length;
  }

  /** One statement of `tenant` as text (a simple-protocol message, which may hold several). */
  query(tenant: string, text: string): Promise<QueryResult | QueryResult[]> {
    return this.onLane(tenant, (client) => client.query(text) as Promise<QueryResult | QueryResult[]>);
  }

  /**
   * One read statement of a tenant, scoped by `scope`, both as prepared
   * statements (`ScopedRead`; unnamed ones without `prepared`). A read that met a statement gone from its
   * connection (the read that parsed it failed first) or re-planned to another
   * result shape is sent once more, parsed afresh.
   */
  async read(scope: ReadScope, text: string, values?: unknown[]): Promise<ReadResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.onLane(scope.searchPath, (client) => {
          const read = new ScopedRead(scope, text, values, client, this.prepared);
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

  private async onLane<T>(tenant: string, send: (client: Pipelinable) => Promise<T>): Promise<T> {
    const picked = this.pick(tenant);
    const lane = picked ? this.take(picked, tenant) : await this.laneFor(tenant);
    try {
      return await send(lane.client);
    } finally {
      lane.inFlight--;
      lane.progressAt = Date.now();
      const left = (lane.tenants.get(tenant) ?? 1) - 1;
      if (left > 0) lane.tenants.set(tenant, left);
      else {
        lane.tenants.delete(tenant);
        const held = (this.lanesHeld.get(tenant) ?? 1) - 1;
        if (held > 0) this.lanesHeld.set(tenant, held);
        else this.lanesHeld.delete(tenant);
      }
      if (lane.inFlight === 0) this.idle(lane);
    }
  }

  /**
   * `lane` carries one more statement, of `tenant`. Counted as soon as the lane
   * is chosen, so that the next statement's choice sees it.
   */
  private take(lane: Lane, tenant: string): Lane {
    if (lane.inFlight++ === 0) lane.progressAt = Date.now();
    const here = lane.tenants.get(tenant) ?? 0;
    lane.tenants.set(tenant, here + 1);
    if (here === 0) {
      this.lanesHeld.set(tenant, (this.lanesHeld.get(tenant) ?? 0) + 1);
      lane.met.add(tenant);
    }
    this.gather(lane);
    return lane;
  }

  /** True when `tenant` has statements in flight on as many lanes as it may (lanes still held). */
  private atShare(tenant: string): boolean {
    return (this.lanesHeld.get(tenant) ?? 0) >= this.tenantLanes && this.lanes.some((lane) => lane.tenants.has(tenant));
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
   * The lane gathering this turn's write if it has met `tenant` and has room;
   * else the least busy lane that has met it and has room, unless it is busy
   * and the pool can lend another connection at once; else the lane gathering
   * this turn's write, if it has room; else the least busy lane, unless it is
   * busy and the pool can lend another connection at once: then none, and the
   * caller borrows one. A tenant at its share of lanes chooses only among the lanes it
   * is on; the others keep off those lanes while they can have another.
   */
  private pick(tenant: string): Lane | undefined {
    const own = this.atShare(tenant);
    let familiar: Lane | undefined;
    let gathering: Lane | undefined;
    let best: Lane | undefined;
    let crowded: Lane | undefined;
    for (const lane of this.lanes) {
      if (own && !lane.tenants.has(tenant)) continue;
      // A lane where another tenant has reached its share likely waits on that tenant's slow
      // statements: taken only when nothing else can be had.
      if (!own && this.crowdedFor(lane, tenant)) {
        if (!crowded || lane.inFlight < crowded.inFlight) crowded = lane;
        continue;
      }
      const room = lane.inFlight < BATCH_LIMIT;
      if (room && lane.met.has(tenant)) {
        if (lane.corked) return lane;
        if (!familiar || lane.inFlight < familiar.inFlight) familiar = lane;
      }
      if (room && lane.corked) gathering ??= lane;
      if (!best || lane.inFlight < best.inFlight) best = lane;
    }
    if (familiar && (own || familiar.inFlight === 0 || !this.canGrow())) return familiar;
    if (gathering) return gathering;
    if (best && (own || best.inFlight === 0 || !this.canGrow())) return best;
    // Rather wait for a connection of its own (the pool may be opening one) than queue behind a crowd.
    if (!best && crowded && this.lanes.length + this.opening.size >= this.maxLanes) return crowded;
    return undefined;
  }

  /** True when `lane` carries statements of a tenant other than `tenant` that is at its share. */
  private crowdedFor(lane: Lane, tenant: string): boolean {
    for (const other of lane.tenants.keys()) if (other !== tenant && this.atShare(other)) return true;
    return false;
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
  private async laneFor(tenant: string): Promise<Lane> {
    for (;;) {
      if (this.opening.size === 0 && this.lanes.length < this.maxLanes && !this.atShare(tenant)) return this.open(tenant);
      if (this.opening.size > 0) await Promise.race(this.opening).catch(() => undefined);
      const lane = this.pick(tenant);
      if (lane) return this.take(lane, tenant);
    }
  }

  private async open(tenant: string): Promise<Lane> {
    const borrowing = this.borrow(tenant);
    this.opening.add(borrowing);
    try {
      return await borrowing;
    } finally {
      this.opening.delete(borrowing);
    }
  }

  private async borrow(tenant: string): Promise<Lane> {
    const client = (await this.pool.connect()) as Pipelinable;
    let met = this.met.get(client);
    if (!met) this.met.set(client, (met = new Set()));
    const lane: Lane = { client, inFlight: 0, tenants: new Map(), progressAt: Date.now(), idleTimer: undefined, met, released: false, corked: false, onError: () => undefined };
    // A connection that fails while held: pg fails every statement sent on it;
    // the connection is dropped, not returned to the pool.
    lane.onError = (error) => this.release(lane, error);
    client.on('error', lane.onError);
    client.pipeline = true;
    this.lanes.push(lane);
    this.watch();
    return this.take(lane, tenant); // for the statement that borrowed it
  }

  /**
   * `lane` has nothing in flight: it goes back to the pool once it has been idle for
   * `LANE_IDLE_MS`; at once (after this turn's statements had their chance to take it) when
   * someone waits for a connection of the pool or the pool is closing.
   */
  private idle(lane: Lane) {
    if (this.poolNeeds()) setImmediate(() => lane.inFlight === 0 && this.release(lane));
    else lane.idleTimer ??= setTimeout(() => this.expire(lane), LANE_IDLE_MS).unref();
  }

  /** The idle timer of `lane` fired: busy again, it waits for its next idle moment; else it goes back when idle long enough. */
  private expire(lane: Lane) {
    lane.idleTimer = undefined;
    if (lane.released || lane.inFlight > 0) return;
    const left = lane.progressAt + LANE_IDLE_MS - Date.now();
    if (left > 0 && !this.poolNeeds()) lane.idleTimer = setTimeout(() => this.expire(lane), left).unref();
    else this.release(lane);
  }

  private poolNeeds(): boolean {
    return this.pool.ending || this.pool.waitingCount > 0;
  }

  private release(lane: Lane, error?: Error) {
    if (lane.released) return;
    lane.released = true;
    clearTimeout(lane.idleTimer);
    const index = this.lanes.indexOf(lane);
    if (index !== -1) this.lanes.splice(index, 1);
    lane.client.removeListener('error', lane.onError);
    lane.client.pipeline = false;
    lane.client.release(error);
    if (this.lanes.length === 0 && this.watchdog) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  private watch() {
    if (this.watchdog || !this.queryTimeoutMs) return;
    this.watchdog = setInterval(() => this.cutStalled(), Math.max(100, Math.floor(this.queryTimeoutMs / 4)));
    this.watchdog.unref();
  }

  /**
   * Lanes whose server answered nothing for `queryTimeoutMs` with statements in
   * flight: destroyed. Judged after this turn's I/O has been read (`setImmediate`
   * runs after the poll phase): when this process itself was stalled (a busy
   * machine, a long pause), answers that arrived meanwhile wait in the socket
   * while timers run first, and a lane that did answer must not be cut for it.
   */
  private cutStalled() {
    if (!this.lanes.some((lane) => this.stalled(lane))) return;
    setImmediate(() => {
      for (const lane of [...this.lanes]) {
        if (!this.stalled(lane)) continue;
        const error = new Error(`Query read timeout: the database answered nothing for ${this.queryTimeoutMs} ms`);
        lane.client.connection.stream.destroy();
        this.release(lane, error);
      }
    });
  }

  private stalled(lane: Lane): boolean {
    return !lane.released && lane.inFlight > 0 && Date.now() - lane.progressAt >= this.queryTimeoutMs;
  }
}
