import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { bindParams, Dialect, maybeCurrentTenant, runWithTenant, sqlTimestamp, TenantContext, TenantDb } from '../../../libs/tenancy';
import { AiLogEventKind } from './ai-log-event.entity';

/** An event waiting in memory to be written. */
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
   * Builds the stored summary and data JSON. Called when the event is written,
   * off the recorded call's path: redaction costs nothing to the call itself.
   */
  materialize(): { summary: string; data: string };
}

interface TenantBatch {
  tenant: TenantContext;
  events: PendingAiLogEvent[];
  failures: number;
}

/**
 * Flush when this many events wait, or FLUSH_DELAY_MS after the first one, whichever comes
 * first: one write per second at most under ordinary load keeps capture's share of the
 * database small. Readers on this instance flush first, so they never miss a call.
 */
const FLUSH_AT = 500;
const FLUSH_DELAY_MS = 1000;
/** Memory bound while the database cannot be written: newer events beyond it are dropped and counted. */
const MAX_PENDING = 50_000;
/** A tenant's batch that failed this many flushes in a row is dropped (and logged). */
const MAX_FAILURES = 5;
const RETRY_DELAY_MS = 1000;
const ROWS_PER_INSERT = 300;
const PARALLEL_TENANTS = 4;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Writes AI-log events without making the recorded call wait: `record` puts
 * the event in a per-tenant buffer and returns; the buffer is written in one
 * multi-row insert per tenant a moment later (or as soon as it holds FLUSH_AT
 * events). Readers of the log call `flush` first, so a timeline always shows
 * the calls that came before it. On shutdown everything buffered is written
 * before the database closes, and events recorded while shutting down are
 * written before their call answers, so a clean stop loses nothing.
 */
@Injectable()
export class AiLogRecorder implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('ai-log');
  private pending = new Map<string, TenantBatch>();
  private pendingCount = 0;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private closing = false;
  private flushQueued = false;
  private dropped = 0;

  constructor(private readonly db: TenantDb) {}

  /** Events dropped because the buffer was full (the database was unreachable for long). */
  get droppedCount(): number {
    return this.dropped;
  }

  /**
   * Queues `event` for the current tenant. Never throws. Returns a promise only
   * while the application shuts down (the caller then waits for the write).
   */
  record(event: PendingAiLogEvent): Promise<void> | void {
    const tenant = maybeCurrentTenant();
    if (!tenant) return;
    if (this.pendingCount >= MAX_PENDING) {
      if (this.dropped++ % 1000 === 0) this.logger.warn({ msg: 'AI-log buffer full: events dropped', dropped: this.dropped });
      return;
    }
    let batch = this.pending.get(tenant.tenantId);
    if (!batch) {
      batch = { tenant, events: [], failures: 0 };
      this.pending.set(tenant.tenantId, batch);
    }
    batch.events.push(event);
    this.pendingCount++;
    if (this.closing) return this.flush();
    if (this.pendingCount < FLUSH_AT) this.schedule(FLUSH_DELAY_MS);
    else if (!this.flushQueued) {
      this.flushQueued = true;
      void this.flush();
    }
  }

  /** Writes everything buffered so far; resolves when it is stored (or has failed and been kept for a retry). */
  flush(): Promise<void> {
    const write = () => this.writeAll();
    this.chain = this.chain.then(write, write);
    return this.chain;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closing = true;
    await this.flush();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pendingCount > 0) await this.flush();
  }

  private schedule(delayMs: number) {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, delayMs);
    this.timer.unref();
  }

  private async writeAll(): Promise<void> {
    this.flushQueued = false;
    if (this.pendingCount === 0) return;
    const batches = [...this.pending.values()];
    this.pending = new Map();
    this.pendingCount = 0;
    // A few tenants at a time: one slow database (a BYODB one) does not hold up the others,
    // and the shared pool keeps connections for requests.
    for (let i = 0; i < batches.length; i += PARALLEL_TENANTS) {
      await Promise.all(
        batches.slice(i, i + PARALLEL_TENANTS).map(async (batch) => {
          try {
            await runWithTenant(batch.tenant, () => this.db.transaction((m) => this.write(m, batch.events)));
          } catch (error) {
            this.keepForRetry(batch, error);
          }
        }),
      );
    }
  }

  private keepForRetry(batch: TenantBatch, error: unknown) {
    batch.failures++;
    if (batch.failures >= MAX_FAILURES) {
      this.dropped += batch.events.length;
      this.logger.error({
        msg: 'AI-log events could not be written and were dropped',
        tenant_id: batch.tenant.tenantId,
        count: batch.events.length,
        error: (error as Error).message,
      });
      return;
    }
    this.logger.warn({ msg: 'AI-log write failed; will retry', tenant_id: batch.tenant.tenantId, count: batch.events.length, error: (error as Error).message });
    const newer = this.pending.get(batch.tenant.tenantId);
    if (newer) batch.events.push(...newer.events);
    this.pendingCount += batch.events.length - (newer?.events.length ?? 0);
    this.pending.set(batch.tenant.tenantId, batch);
    if (!this.closing) this.schedule(RETRY_DELAY_MS);
  }

  /** One tenant's events in one transaction: attribution resolved against its own projects and sessions. */
  private async write(m: EntityManager, events: PendingAiLogEvent[]): Promise<void> {
    const dialect = this.db.dialect;
    const projectIds = unique(events.map((e) => e.projectRef));
    const sessionIds = unique(events.map((e) => e.sessionRef));
    const projects = new Set((await selectIn(m, dialect, 'SELECT id FROM projects WHERE id IN', projectIds)).map((r) => String(r.id)));
    const sessionProject = new Map((await selectIn(m, dialect, 'SELECT id, project_id FROM sessions WHERE id IN', sessionIds)).map((r) => [String(r.id), String(r.project_id)]));
    const rows = events.map((e) => {
      const { summary, data } = safeMaterialize(e);
      // Only this tenant's own sessions and projects are referenced; the arguments keep what the call named.
      const session = e.sessionRef && sessionProject.has(e.sessionRef) ? e.sessionRef : null;
      const project = e.projectRef && projects.has(e.projectRef) ? e.projectRef : (session && sessionProject.get(session)) || null;
      return [e.id, e.kind, project, session, e.tool ?? null, e.outcome ?? null, e.errorCode ?? null, e.durationMs ?? null, summary, data, sqlTimestamp(dialect, e.occurredAt)];
    });
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      const slice = rows.slice(i, i + ROWS_PER_INSERT);
      const values = slice.map((_, r) => `(${Array.from({ length: 11 }, (_, c) => `$${r * 11 + c + 1}`).join(', ')})`).join(', ');
      const [sql, params] = bindParams(
        dialect,
        `INSERT INTO ai_log_events (id, kind, project_id, session_id, tool, outcome, error_code, duration_ms, summary, data, occurred_at) VALUES ${values}`,
        slice.flat(),
      );
      await m.query(sql, params);
    }
  }
}

function unique(ids: (string | null)[]): string[] {
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && UUID.test(id)))];
}

async function selectIn(m: EntityManager, dialect: Dialect, prefix: string, ids: string[]): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const [sql, params] = bindParams(dialect, `${prefix} (${part.map((_, n) => `$${n + 1}`).join(', ')})`, part);
    out.push(...((await m.query(sql, params)) as Record<string, unknown>[]));
  }
  return out;
}

function safeMaterialize(event: PendingAiLogEvent): { summary: string; data: string } {
  try {
    return event.materialize();
  } catch {
    return { summary: `${event.tool ?? event.kind} (details could not be recorded)`, data: '{}' };
  }
}
