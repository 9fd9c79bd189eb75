import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { bindParams, currentTenant, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { PushService } from '../push/push.service';
import { STALE_SESSION_MS, STATS_DAYS_DEFAULT } from './time.constants';

type Counts = Record<string, number>;

/**
 * What a team lead reads about a project (GET .../stats) and what is alive in it right now
 * (GET .../runtime_diagnostics). Both only read; every figure is computed from the rows.
 */
@Injectable()
export class ProjectStatsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly push: PushService,
  ) {}

  async stats(projectId: string, days = STATS_DAYS_DEFAULT) {
    const now = this.clock.now();
    const since = startOfUtcDay(new Date(now.getTime() - (days - 1) * 86_400_000));
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      const q = (sql: string, params: unknown[] = []) => this.query(m, sql, [projectId, ...params]);
      const items = countsOf(await q('SELECT status AS k, COUNT(*) AS n FROM sprint_items WHERE project_id = $1 GROUP BY status'));
      const tasks = countsOf(await q('SELECT status AS k, COUNT(*) AS n FROM tasks WHERE project_id = $1 GROUP BY status'));
      const sessions = countsOf(await q('SELECT status AS k, COUNT(*) AS n FROM sessions WHERE project_id = $1 GROUP BY status'));
      const hitl = countsOf(await q('SELECT status AS k, COUNT(*) AS n FROM hitl_requests WHERE project_id = $1 GROUP BY status'));
      const recent = await q('SELECT status, created_at FROM tasks WHERE project_id = $1 AND created_at >= $2', [sqlTimestamp(this.db.dialect, since)]);
      const answers = await q("SELECT created_at AS a, answered_at AS b FROM hitl_requests WHERE project_id = $1 AND status = 'answered' AND answered_at IS NOT NULL");
      const claims = await q('SELECT claimed_at AS a, completed_at AS b FROM sprint_items WHERE project_id = $1 AND claimed_at IS NOT NULL');
      const summary = await q('SELECT body, since, until, created_at FROM project_summaries WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1');
      const done = items.done ?? 0;
      const total = sum(items);
      const finished = claims.filter((c) => c.b !== null);
      const open = claims.filter((c) => c.b === null).map((c) => now.getTime() - fromSqlTimestamp(c.a as string).getTime());
      return {
        project_id: projectId,
        generated_at: now.toISOString(),
        sprint_items: { total, by_status: items, percent_done: total === 0 ? 0 : Math.round((done / total) * 100) },
        tasks: { total: sum(tasks), by_status: tasks, per_day: perDay(recent, since, days) },
        sessions: { total: sum(sessions), active: sessions.active ?? 0, closed: sessions.closed ?? 0 },
        hitl: {
          pending: hitl.pending ?? 0,
          answered: hitl.answered ?? 0,
          dismissed: hitl.dismissed ?? 0,
          median_answer_seconds: medianSeconds(answers.map((r) => spanMs(r.a, r.b))),
        },
        claims: {
          completed: finished.length,
          median_claim_to_done_seconds: medianSeconds(finished.map((r) => spanMs(r.a, r.b))),
          open: open.length,
          oldest_open_claim_seconds: open.length ? Math.round(Math.max(...open) / 1000) : null,
        },
        latest_summary: summary[0]
          ? {
              body: summary[0].body,
              since: fromSqlTimestamp(summary[0].since as string).toISOString(),
              until: fromSqlTimestamp(summary[0].until as string).toISOString(),
            }
          : null,
      };
    });
  }

  async runtimeDiagnostics(projectId: string) {
    const now = this.clock.now();
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      const q = (sql: string) => this.query(m, sql, [projectId]);
      const sessions = await q("SELECT id, name, kind, human_id, last_seen, created_at FROM sessions WHERE project_id = $1 AND status = 'active' ORDER BY last_seen DESC");
      const locks = await q('SELECT file_path, session_id, claimed_at, expires_at FROM file_locks WHERE project_id = $1 ORDER BY claimed_at');
      const claimed = await q(
        "SELECT id, title, claimed_by_session_id, claimant, claimed_at FROM sprint_items WHERE project_id = $1 AND status = 'in_progress' ORDER BY claimed_at",
      );
      const tasks = await q("SELECT COUNT(*) AS n FROM tasks WHERE project_id = $1 AND status = 'in_progress'");
      const iso = (v: unknown) => (v === null || v === undefined ? null : fromSqlTimestamp(v as string).toISOString());
      const tenantId = currentTenant().tenantId;
      return {
        project_id: projectId,
        generated_at: now.toISOString(),
        active_sessions: sessions.map((s) => {
          const silentMs = now.getTime() - fromSqlTimestamp(s.last_seen as string).getTime();
          return {
            id: s.id,
            name: s.name,
            kind: s.kind,
            human_id: s.human_id,
            started_at: iso(s.created_at),
            last_seen: iso(s.last_seen),
            seconds_since_heartbeat: Math.max(0, Math.round(silentMs / 1000)),
            stale: silentMs > STALE_SESSION_MS,
          };
        }),
        file_locks: locks.map((l) => ({
          file_path: l.file_path,
          session_id: l.session_id,
          claimed_at: iso(l.claimed_at),
          expires_at: iso(l.expires_at),
          expired: fromSqlTimestamp(l.expires_at as string).getTime() <= now.getTime(),
        })),
        claimed_sprint_items: claimed.map((c) => ({ id: c.id, title: c.title, session_id: c.claimed_by_session_id, claimant: c.claimant, claimed_at: iso(c.claimed_at) })),
        in_progress_tasks: Number(tasks[0]?.n ?? 0),
        push: { live: this.push.liveFor(tenantId), availability: this.push.adapter.state, poll_interval_ms: this.push.intervalFor(tenantId) },
      };
    });
  }

  private query(m: EntityManager, sql: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    const [bound, values] = bindParams(this.db.dialect, sql, params);
    return m.query(bound, values);
  }
}

function countsOf(rows: Record<string, unknown>[]): Counts {
  return Object.fromEntries(rows.map((r) => [String(r.k), Number(r.n)]));
}

function sum(counts: Counts): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

function spanMs(from: unknown, to: unknown): number {
  return fromSqlTimestamp(to as string).getTime() - fromSqlTimestamp(from as string).getTime();
}

function medianSeconds(spans: number[]): number | null {
  if (spans.length === 0) return null;
  const sorted = [...spans].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const ms = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return Math.round(ms / 1000);
}

/** Tasks logged and done on each UTC day from `since`, oldest first, days without tasks included. */
function perDay(rows: Record<string, unknown>[], since: Date, days: number) {
  const out = Array.from({ length: days }, (_, i) => ({ date: new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10), logged: 0, done: 0 }));
  for (const row of rows) {
    const index = Math.floor((fromSqlTimestamp(row.created_at as string).getTime() - since.getTime()) / 86_400_000);
    const day = out[index];
    if (!day) continue;
    day.logged += 1;
    if (row.status === 'done') day.done += 1;
  }
  return out;
}
