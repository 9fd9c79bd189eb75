import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Dialect, maybeCurrentTenant, runWithTenant, sqlTimestamp, Statement, TenantContext, TenantDb } from '../../../libs/tenancy';
import { AiLogEventKind } from './ai-log-event.entity';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { Metrics } from '../../common/observability/metrics';
import { isRowDataError } from '../../common/errors/db-errors';

/** An event to be written. */
export interface PendingAiLogEvent {
  id: string;
  kind: AiLogEventKind;
  occurredAt: Date;
  /** The project the event names, if any; kept only if it is a project of the tenant. */
  projectRef: string | null;
  sessionRef: string | null;
  tool?: string | null;
  outcome?: 'ok' | 'error' | null;
  errorCode?: string | null;
  durationMs?: number | null;
  /**
   * Builds the stored summary and data JSON. Called when the event's batch is
   * written, so redaction runs once per write attempt and only for events
   * that reach the database.
   */
  materialize(): { summary: string; data: string };
}

/** An event and how many writes of it have failed so far. */
interface Entry {
  event: PendingAiLogEvent;
  failures: number;
  /** Its summary and data were replaced after its own values failed a write (`writeEntries`). */
  bare?: true;
}

/**
 * One tenant's events. At most one write is in flight; events recorded while it runs gather in
 * `queued` and leave together in the next write, which starts as soon as the current one ends.
 */
interface TenantLog {
  tenant: TenantContext;
  queued: Entry[];
  /** Settles when the write that will take `queued` has ended (stored, or failed and kept). */
  queuedWritten: Settled | undefined;
  inFlight: Promise<void> | undefined;
  /** A write is about to start (see `enqueue`). */
  starting: boolean;
  /** Events whose write failed, waiting for the retry timer. */
  retry: Entry[];
}

interface Settled {
  promise: Promise<void>;
  settle(): void;
}

/** Memory bound while the database cannot be written: newer events beyond it are dropped and counted. */
const MAX_PENDING = 50_000;
/** An event whose write failed this many times is dropped (and logged). */
const MAX_FAILURES = 5;
const RETRY_DELAY_MS = 1000;
const ROWS_PER_INSERT = 300;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DONE: Promise<void> = Promise.resolve();

/**
 * Writes AI-log events by group commit: `record` returns a promise that settles
 * once the event is stored, and the recorded call answers only after it, so a
 * call whose answer was sent has its event in the database even if the process
 * is killed right after. When none of its writes is running, a tenant's write
 * starts in the same turn of the event loop (setImmediate), taking every event
 * recorded in that turn; events recorded while one runs share the next
 * multi-row insert, so under load a write costs each call a fraction of one
 * transaction. A write that one event's values make fail (a data or constraint
 * error) is split until that event is alone: the others are stored in the same
 * attempt, before their calls answer. A failed write does not fail the call, which answers once the
 * attempt has ended: its events stay in memory and are tried again a second
 * later (up to MAX_FAILURES writes in all). Readers of the log call
 * `flush` first, which also writes those kept events. On shutdown everything
 * kept is written before the database closes.
 */
@Injectable()
export class AiLogRecorder implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ai-log');
  private readonly logs = new Map<string, TenantLog>();
  /** Events recorded and not yet stored or dropped: queued, being written, or kept for a retry. */
  private pendingCount = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private closing = false;
  private dropped = 0;

  constructor(
    private readonly db: TenantDb,
    private readonly events: RealtimeEvents,
    metrics: Metrics,
  ) {
    metrics.gauge('baton_ai_log_pending_events', 'AI-log events captured and not yet written', () => this.pendingCount);
    metrics.gauge('baton_ai_log_dropped_events', 'AI-log events dropped since start (buffer full or writes failing)', () => this.dropped);
  }

  /** Events dropped because the buffer was full or their writes kept failing. */
  get droppedCount(): number {
    return this.dropped;
  }

  /**
   * Records `event` for the current tenant. Resolves when it is stored, or when
   * its write failed and it was kept for a retry (or dropped); never rejects.
   */
  record(event: PendingAiLogEvent): Promise<void> {
    const tenant = maybeCurrentTenant();
    if (!tenant) return DONE;
    if (this.pendingCount >= MAX_PENDING) {
      if (this.dropped++ % 1000 === 0) this.logger.warn({ msg: 'AI-log buffer full: events dropped', dropped: this.dropped });
      return DONE;
    }
    let log = this.logs.get(tenant.tenantId);
    if (!log) {
      log = { tenant, queued: [], queuedWritten: undefined, inFlight: undefined, starting: false, retry: [] };
      this.logs.set(tenant.tenantId, log);
    }
    this.pendingCount++;
    return this.enqueue(log, [{ event, failures: 0 }]);
  }

  /** Writes everything recorded so far, kept events included; resolves when it is stored (or has failed and been kept for a retry). */
  flush(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const log of [...this.logs.values()]) {
      if (log.retry.length > 0) {
        const kept = log.retry;
        log.retry = [];
        void this.enqueue(log, kept);
      }
      const wait = log.queuedWritten?.promise ?? log.inFlight;
      if (wait) waits.push(wait);
    }
    return waits.length ? Promise.all(waits).then(() => undefined) : DONE;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (this.pendingCount > 0) await this.flush();
  }

  private enqueue(log: TenantLog, entries: Entry[]): Promise<void> {
    log.queued.push(...entries);
    log.queuedWritten ??= settled();
    const written = log.queuedWritten.promise;
    if (!log.inFlight && !log.starting) {
      // Not in this very tick but right after the I/O callbacks of this turn of the event loop:
      // the calls that finished in the same turn share the write, and none waits for a timer.
      // (On SQLite a write completes without yielding, so started at once it would carry one event.)
      log.starting = true;
      setImmediate(() => {
        log.starting = false;
        if (!log.inFlight && log.queued.length > 0) this.startWrite(log);
      });
    }
    return written;
  }

  /** Takes everything queued into one write; when it ends, whatever gathered meanwhile follows at once. */
  private startWrite(log: TenantLog) {
    const batch = log.queued;
    const written = log.queuedWritten;
    log.queued = [];
    log.queuedWritten = undefined;
    const next = () => {
      log.inFlight = undefined;
      written?.settle();
      if (log.queued.length > 0) this.startWrite(log);
      else if (log.retry.length === 0 && this.logs.get(log.tenant.tenantId) === log) this.logs.delete(log.tenant.tenantId);
    };
    // Whatever happens to this write, the calls waiting for it answer and the next write starts.
    log.inFlight = this.writeEntries(log, batch).then(next, (error: unknown) => {
      this.logger.error({ msg: 'AI-log write ended unexpectedly', tenant_id: log.tenant.tenantId, error: (error as Error)?.message, stack: (error as Error)?.stack });
      next();
    });
  }

  /**
   * Writes `entries`. When their values made the write fail (`isRowDataError`), one row is at
   * fault and the others must not share its fate: the halves are written one after the other, down
   * to the event at fault, which is tried once more with its summary and data replaced (the call
   * stays on the log, without its details) and, failing that too, kept for a retry like any failed
   * write. A batch of n events with one bad row costs about 2·log2(n) more writes, only then.
   */
  private async writeEntries(log: TenantLog, entries: Entry[]): Promise<void> {
    try {
      await runWithTenant(log.tenant, () => this.write(entries.map((e) => e.event)));
      this.pendingCount -= entries.length;
      // The tenant's dashboards read the timeline again (events carry no view: attribution is resolved in the insert).
      this.events.publish({ tenantId: log.tenant.tenantId, event: 'ai_log_written', data: { count: entries.length } });
    } catch (error) {
      if (!isRowDataError(error)) return this.keepForRetry(log, entries, error);
      if (entries.length > 1) {
        const half = Math.ceil(entries.length / 2);
        await this.writeEntries(log, entries.slice(0, half));
        return this.writeEntries(log, entries.slice(half));
      }
      const [entry] = entries;
      if (entry.bare) return this.keepForRetry(log, entries, error);
      this.logger.warn({
        msg: 'AI-log event refused by the database; stored without its details',
        tenant_id: log.tenant.tenantId,
        kind: entry.event.kind,
        error: (error as Error).message,
      });
      const { event } = entry;
      return this.writeEntries(log, [{ event: { ...event, materialize: () => undetailed(event) }, failures: entry.failures, bare: true }]);
    }
  }

  private keepForRetry(log: TenantLog, batch: Entry[], error: unknown) {
    const kept: Entry[] = [];
    let lost = 0;
    for (const entry of batch) {
      if (++entry.failures >= MAX_FAILURES) lost++;
      else kept.push(entry);
    }
    this.pendingCount -= lost;
    if (lost > 0) {
      this.dropped += lost;
      this.logger.error({ msg: 'AI-log events could not be written and were dropped', tenant_id: log.tenant.tenantId, count: lost, error: (error as Error).message });
    }
    if (kept.length === 0) return;
    this.logger.warn({ msg: 'AI-log write failed; will retry', tenant_id: log.tenant.tenantId, count: kept.length, error: (error as Error).message });
    log.retry.push(...kept);
    if (!this.closing) this.scheduleRetry();
  }

  private scheduleRetry() {
    if (this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      for (const log of [...this.logs.values()]) {
        if (log.retry.length === 0) continue;
        const kept = log.retry;
        log.retry = [];
        void this.enqueue(log, kept);
      }
    }, RETRY_DELAY_MS);
    this.retryTimer.unref();
  }

  /**
   * The inserts of one tenant's events, one statement per ROWS_PER_INSERT events, written in one
   * transaction: a call waits for this write, so attribution is resolved in the insert itself
   * (joins on this tenant's own projects and sessions) rather than by reading them first.
   */
  private write(events: PendingAiLogEvent[]): Promise<void> {
    const statements: Statement[] = [];
    for (let i = 0; i < events.length; i += ROWS_PER_INSERT) statements.push(this.insert(events.slice(i, i + ROWS_PER_INSERT)));
    // One statement (up to ROWS_PER_INSERT events, the usual case) is its own transaction, in one round trip.
    if (statements.length === 1) return this.db.writeStatement(statements[0]).then(() => undefined);
    return this.db.transaction(async (m) => {
      for (const { text, values } of statements) await m.query(text, values);
    });
  }

  /**
   * One insert of `events`. On Postgres the rows travel as one JSON parameter, so the statement's
   * text never changes and stays prepared on each connection (parsed and planned once), where a
   * VALUES list of 12 parameters a row was parsed and planned anew for every write, at more cost
   * than inserting the rows. SQLite keeps the VALUES list, each size's statement compiled once in
   * the driver's statement cache, which costs less there than reading JSON.
   */
  private insert(events: PendingAiLogEvent[]): Statement {
    const dialect = this.db.dialect;
    const rows = events.map((e, n) => {
      const { summary, data } = safeMaterialize(e);
      const [project_ref, session_ref] = [uuidOrNull(e.projectRef), uuidOrNull(e.sessionRef)];
      const [tool, outcome, error_code, duration_ms] = [e.tool ?? null, e.outcome ?? null, e.errorCode ?? null, e.durationMs ?? null];
      return { n, id: e.id, kind: e.kind, project_ref, session_ref, tool, outcome, error_code, duration_ms, summary, data, occurred_at: timestamp(dialect, e.occurredAt) };
    });
    if (dialect === 'postgres') return { ...INSERT_POSTGRES, values: [JSON.stringify(rows)] };
    return { text: insertSqlite(rows.length), values: rows.flatMap((row) => ROW.map((field) => row[field])) };
  }
}

const COLUMNS = 'id, kind, project_id, session_id, tool, outcome, error_code, duration_ms, summary, data, occurred_at';
/**
 * The events' rows in input order, the call's project kept when it is one of the tenant's, else
 * the project of the call's session when that session is the tenant's, else null; the session
 * kept only when it is the tenant's. The arguments still show what the call named.
 */
const ATTRIBUTED = 'v.id, v.kind, COALESCE(p.id, s.project_id), s.id, v.tool, v.outcome, v.error_code, v.duration_ms, v.summary, v.data, v.occurred_at';
const JOINS = 'LEFT JOIN projects p ON p.id = v.project_ref LEFT JOIN sessions s ON s.id = v.session_ref ORDER BY v.n';
/** The fields of an event's row, in the order of the VALUES list and named as in the JSON objects. */
const ROW = ['n', 'id', 'kind', 'project_ref', 'session_ref', 'tool', 'outcome', 'error_code', 'duration_ms', 'summary', 'data', 'occurred_at'] as const;

const INSERT_POSTGRES = {
  name: 'baton_ai_log_insert',
  text:
    `INSERT INTO ai_log_events (${COLUMNS}) SELECT ${ATTRIBUTED} FROM json_to_recordset($1::json) AS v (n integer, id uuid, kind text, project_ref uuid, ` +
    `session_ref uuid, tool text, outcome text, error_code text, duration_ms double precision, summary text, data text, occurred_at timestamptz) ${JOINS}`,
};

function insertSqlite(count: number): string {
  const row = `(${ROW.map(() => '?').join(', ')})`;
  return `WITH v (${ROW.join(', ')}) AS (VALUES ${Array(count).fill(row).join(', ')}) INSERT INTO ai_log_events (${COLUMNS}) SELECT ${ATTRIBUTED} FROM v ${JOINS}`;
}

/** The time as Postgres reads it from JSON (ISO 8601), or as SQLite stores it (`sqlTimestamp`). */
function timestamp(dialect: Dialect, at: Date): string {
  return dialect === 'postgres' ? at.toISOString() : (sqlTimestamp(dialect, at) as string);
}

/** Only a UUID can name a project or session; anything else names none (and casts to uuid would fail). */
function uuidOrNull(ref: string | null): string | null {
  return typeof ref === 'string' && UUID.test(ref) ? ref : null;
}

function safeMaterialize(event: PendingAiLogEvent): { summary: string; data: string } {
  try {
    return event.materialize();
  } catch {
    return undetailed(event);
  }
}

/** What is stored of an event whose details could not be: that it happened, and what it was. */
function undetailed(event: PendingAiLogEvent): { summary: string; data: string } {
  return { summary: `${event.tool ?? event.kind} (details could not be recorded)`, data: '{}' };
}

function settled(): Settled {
  let settle!: () => void;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  return { promise, settle };
}
