import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { bindParams, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { AiLogEventRow, EVENT_COLUMNS } from './ai-log-event.view';

/** An export scope: one project's events, or the events that belong to no project. */
export interface ExportScope {
  key: string;
  projectId: string | null;
}

export function scopeOf(projectId: string | null | undefined): ExportScope {
  return projectId ? { key: `project:${projectId}`, projectId } : { key: 'unattributed', projectId: null };
}

export interface ExportStateView {
  watermark_seq: number;
  exported_count: number;
  pass_running: boolean;
  last_attempt_at: string | null;
  last_status: string | null;
  last_result: Record<string, unknown> | null;
}

/**
 * The durable side of the export, in the tenant's own database: the
 * watermark of each scope (everything up to it was accepted by the endpoint),
 * the lease a running pass holds on it, and the last attempt's outcome.
 */
@Injectable()
export class AiLogExportStateStore {
  constructor(private readonly db: TenantDb) {}

  /**
   * Takes the scope's lease until `until` unless another pass holds an
   * unexpired one. Answers the watermark when taken, null when busy.
   */
  async claim(scope: ExportScope, leaseId: string, now: Date, until: Date): Promise<number | null> {
    const d = this.db.dialect;
    return this.db.transaction(async (m) => {
      await this.ensure(m, scope);
      await this.run(m, 'UPDATE ai_log_export_state SET lease_id = $1, lease_until = $2 WHERE scope = $3 AND (lease_until IS NULL OR lease_until < $4)', [
        leaseId,
        sqlTimestamp(d, until),
        scope.key,
        sqlTimestamp(d, now),
      ]);
      const [row] = await this.run(m, 'SELECT lease_id, watermark_seq FROM ai_log_export_state WHERE scope = $1', [scope.key]);
      return row && row.lease_id === leaseId ? Number(row.watermark_seq) : null;
    });
  }

  /**
   * Reads up to `limit` events after `watermark`, oldest first. On Postgres the
   * table is share-locked for this one read, which waits for every insert still
   * in flight: an event whose seq was handed out before this read is committed
   * and visible, so the watermark can never pass over it.
   */
  async readAfter(scope: ExportScope, watermark: number, limit: number): Promise<AiLogEventRow[]> {
    return this.db.transaction(async (m) => {
      if (this.db.dialect === 'postgres') await m.query('LOCK TABLE ai_log_events IN SHARE MODE');
      const where = scope.projectId ? 'project_id = $1' : 'project_id IS NULL';
      const params = scope.projectId ? [scope.projectId, watermark, limit] : [watermark, limit];
      const n = params.length;
      const sql = `SELECT ${EVENT_COLUMNS} FROM ai_log_events WHERE ${where} AND seq > $${n - 1} ORDER BY seq LIMIT $${n}`;
      return (await this.run(m, sql, params)) as unknown as AiLogEventRow[];
    });
  }

  /** Moves the watermark past an accepted chunk; false when the lease is no longer this pass's. */
  async advance(scope: ExportScope, leaseId: string, seq: number, count: number): Promise<boolean> {
    return this.db.transaction(async (m) => {
      await this.run(m, 'UPDATE ai_log_export_state SET watermark_seq = $1, exported_count = exported_count + $2 WHERE scope = $3 AND lease_id = $4', [
        seq,
        count,
        scope.key,
        leaseId,
      ]);
      const [row] = await this.run(m, 'SELECT lease_id, watermark_seq FROM ai_log_export_state WHERE scope = $1', [scope.key]);
      return Boolean(row && row.lease_id === leaseId && Number(row.watermark_seq) === seq);
    });
  }

  /** Ends a pass: lease released, outcome kept for get_ai_log_export_status. */
  async release(scope: ExportScope, leaseId: string, at: Date, status: string, result: Record<string, unknown>): Promise<void> {
    await this.db.transaction((m) =>
      this.run(
        m,
        `UPDATE ai_log_export_state SET lease_id = NULL, lease_until = NULL, last_attempt_at = $1, last_status = $2, last_result = $3
          WHERE scope = $4 AND lease_id = $5`,
        [sqlTimestamp(this.db.dialect, at), status, JSON.stringify(result), scope.key, leaseId],
      ),
    );
  }

  /** Records the outcome of an attempt that sent nothing (export off, library absent, no endpoint). */
  async note(scope: ExportScope, at: Date, status: string, result: Record<string, unknown>): Promise<void> {
    await this.db.transaction(async (m) => {
      await this.ensure(m, scope);
      await this.run(m, 'UPDATE ai_log_export_state SET last_attempt_at = $1, last_status = $2, last_result = $3 WHERE scope = $4', [
        sqlTimestamp(this.db.dialect, at),
        status,
        JSON.stringify(result),
        scope.key,
      ]);
    });
  }

  /** The scope's progress and last outcome, and how many events wait after the watermark. */
  async view(m: EntityManager, scope: ExportScope, now: Date): Promise<ExportStateView & { pending: number }> {
    const [row] = await this.run(m, 'SELECT watermark_seq, exported_count, lease_until, last_attempt_at, last_status, last_result FROM ai_log_export_state WHERE scope = $1', [
      scope.key,
    ]);
    const watermark = row ? Number(row.watermark_seq) : 0;
    const pending = await this.pending(m, scope, watermark);
    let last: Record<string, unknown> | null = null;
    if (row?.last_result) {
      try {
        last = JSON.parse(String(row.last_result)) as Record<string, unknown>;
      } catch {
        last = null;
      }
    }
    return {
      watermark_seq: watermark,
      exported_count: row ? Number(row.exported_count) : 0,
      pass_running: Boolean(row?.lease_until && fromSqlTimestamp(row.lease_until as Date | string).getTime() > now.getTime()),
      last_attempt_at: row?.last_attempt_at ? fromSqlTimestamp(row.last_attempt_at as Date | string).toISOString() : null,
      last_status: row?.last_status ? String(row.last_status) : null,
      last_result: last,
      pending,
    };
  }

  async pending(m: EntityManager, scope: ExportScope, watermark: number): Promise<number> {
    const where = scope.projectId ? 'project_id = $1' : 'project_id IS NULL';
    const params = scope.projectId ? [scope.projectId, watermark] : [watermark];
    const sql = `SELECT COUNT(*) AS n FROM ai_log_events WHERE ${where} AND seq > $${params.length}`;
    const [row] = await this.run(m, sql, params);
    return Number(row?.n ?? 0);
  }

  private async ensure(m: EntityManager, scope: ExportScope): Promise<void> {
    await this.run(m, 'INSERT INTO ai_log_export_state (scope, project_id, watermark_seq, exported_count) VALUES ($1, $2, 0, 0) ON CONFLICT (scope) DO NOTHING', [
      scope.key,
      scope.projectId,
    ]);
  }

  private async run(m: EntityManager, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const [text, bound] = bindParams(this.db.dialect, sql, params);
    const raw = (await m.query(text, bound)) as unknown;
    return Array.isArray(raw) ? (raw.filter((r) => r && typeof r === 'object' && !Array.isArray(r)) as Record<string, unknown>[]) : [];
  }
}
