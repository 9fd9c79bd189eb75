import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { bindParams, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { mergeMinor } from '../goals/auto-block.util';
import { BoardReadCache } from '../push/board-read-cache.service';
import { returnedRows } from '../tasks/task-rows';
import { statusBlock } from './goal-auto-block.util';

const JOB = 'auto_summary';
/** Lines of each kind a digest lists (the counts say how many there were in all). */
const LINES_PER_KIND = 20;
/** The latest tasks an `auto` goal's status block names. */
const STATUS_TASKS = 5;

type Query = (m: EntityManager, sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/**
 * The auto-summary of one tenant: claims the cycle in the tenant's `job_runs` row (a
 * compare-and-set, so of several instances sharing the database exactly one wins each cycle),
 * then writes, for each active project where something happened since the previous cycle, a
 * deterministic digest of it (tasks done, sprint items moved, decisions pinned, sessions started).
 * Projects whose goal mode is `auto` also get their goal's `status` AUTO BLOCK refreshed (a minor
 * write: no new version); `manual` goals are never touched.
 */
@Injectable()
export class AutoSummaryService {
  constructor(
    private readonly db: TenantDb,
    private readonly board: BoardReadCache,
  ) {}

  /**
   * Runs a cycle at `now` unless one ran less than `intervalMs - slackMs` ago; returns how many
   * summaries it wrote, or null when it did not run. The window a cycle digests ends `settleMs`
   * before `now`, and `job_runs.last_run_at` keeps where the last window ended: a write stamped
   * before the cycle read but committed after it is then digested by the next cycle, not by none.
   */
  async runCycle(now: Date, intervalMs: number, slackMs: number, settleMs: number): Promise<number | null> {
    const dialect = this.db.dialect;
    const q = (m: EntityManager, sql: string, params: unknown[]) => m.query(...bindParams(dialect, sql, params)) as Promise<Record<string, unknown>[]>;
    const until = new Date(now.getTime() - settleMs);
    let goalsChanged = 0;
    const summaries = await this.db.transaction(async (m) => {
      await q(m, 'INSERT INTO job_runs (name, last_run_at) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [JOB, sqlTimestamp(dialect, new Date(until.getTime() - intervalMs))]);
      const [row] = await q(m, 'SELECT last_run_at FROM job_runs WHERE name = $1', [JOB]);
      const last = row.last_run_at as Date | string;
      if (fromSqlTimestamp(last).getTime() > until.getTime() - intervalMs + slackMs) return null;
      const claimed = returnedRows(
        await q(m, 'UPDATE job_runs SET last_run_at = $1 WHERE name = $2 AND last_run_at = $3 RETURNING name', [sqlTimestamp(dialect, until), JOB, last]),
      );
      if (claimed.length === 0) return null;
      const since = fromSqlTimestamp(last);
      const projects = await q(m, "SELECT id FROM projects WHERE organization_status = 'active'", []);
      let written = 0;
      for (const { id } of projects) if (await this.summarise(m, q, String(id), since, until)) written += 1;
      const auto = await q(
        m,
        "SELECT g.id, g.project_id, g.content FROM goals g JOIN projects p ON p.id = g.project_id WHERE g.mode = 'auto' AND p.organization_status = 'active'",
        [],
      );
      for (const goal of auto) if (await this.refreshGoal(m, q, goal, now)) goalsChanged += 1;
      return written;
    });
    if (goalsChanged > 0) this.board.changed();
    return summaries;
  }

  /** Rewrites the `status` block of an `auto` goal where it stands, when the project's state changed it. */
  private async refreshGoal(m: EntityManager, q: Query, goal: Record<string, unknown>, now: Date): Promise<boolean> {
    const projectId = String(goal.project_id);
    const items = await q(
      m,
      "SELECT title, status, blocker_kind FROM sprint_items WHERE project_id = $1 AND (status IN ('done', 'in_progress') OR blocker_kind IS NOT NULL) ORDER BY priority_rank, added_at, id",
      [projectId],
    );
    const [hitl] = await q(m, "SELECT COUNT(*) AS n FROM hitl_requests WHERE project_id = $1 AND status = 'pending'", [projectId]);
    const tasks = await q(m, 'SELECT description FROM tasks WHERE project_id = $1 ORDER BY seq DESC LIMIT $2', [projectId, STATUS_TASKS]);
    const block = statusBlock({
      done: items.filter((i) => i.status === 'done').length,
      in_progress: items.filter((i) => i.status === 'in_progress').map((i) => String(i.title)),
      blocked: items
        .filter((i) => i.blocker_kind !== null && !['done', 'failed', 'skipped', 'pushed'].includes(String(i.status)))
        .map((i) => ({ title: String(i.title), blocker_kind: String(i.blocker_kind) })),
      open_hitl: Number(hitl.n),
      last_tasks: tasks.map((t) => String(t.description).split('\n')[0].slice(0, 200)),
    });
    const content = mergeMinor(String(goal.content), block);
    if (content === goal.content) return false;
    await q(m, 'UPDATE goals SET content = $1, updated_at = $2 WHERE id = $3', [content, sqlTimestamp(this.db.dialect, now), goal.id]);
    return true;
  }

  private async summarise(m: EntityManager, q: Query, projectId: string, since: Date, until: Date) {
    const dialect = this.db.dialect;
    const window = [projectId, sqlTimestamp(dialect, since), sqlTimestamp(dialect, until)];
    const done = await q(m, "SELECT description FROM tasks WHERE project_id = $1 AND status = 'done' AND updated_at > $2 AND updated_at <= $3 ORDER BY seq", window);
    const revisions = await q(
      m,
      "SELECT entity_id, data FROM state_revisions WHERE project_id = $1 AND entity = 'sprint_item' AND op = 'upsert' AND changed_at > $2 AND changed_at <= $3 ORDER BY changed_at, seq",
      window,
    );
    const decisions = await q(
      m,
      "SELECT title FROM pinned_decisions WHERE project_id = $1 AND status = 'active' AND created_at > $2 AND created_at <= $3 ORDER BY created_at",
      window,
    );
    const [sessions] = await q(m, 'SELECT COUNT(*) AS n FROM sessions WHERE project_id = $1 AND created_at > $2 AND created_at <= $3', window);
    const moved = new Map<string, { title: string; status: string }>();
    for (const r of revisions) moved.set(String(r.entity_id), JSON.parse(String(r.data)) as { title: string; status: string });
    const counts = { tasks_done: done.length, items_moved: moved.size, decisions: decisions.length, sessions_started: Number(sessions.n) };
    if (counts.tasks_done + counts.items_moved + counts.decisions + counts.sessions_started === 0) return false;
    const lines = [
      `Since ${since.toISOString()}: ${counts.tasks_done} tasks done, ${counts.items_moved} sprint items moved, ${counts.decisions} decisions pinned, ${counts.sessions_started} sessions started.`,
      ...done.slice(0, LINES_PER_KIND).map((t) => `- done: ${String(t.description).split('\n')[0].slice(0, 200)}`),
      ...[...moved.values()].slice(0, LINES_PER_KIND).map((i) => `- item ${i.status}: ${i.title}`),
      ...decisions.slice(0, LINES_PER_KIND).map((d) => `- decision: ${String(d.title)}`),
    ];
    await q(m, 'INSERT INTO project_summaries (id, project_id, body, counts, since, until, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
      randomUUID(),
      projectId,
      lines.join('\n'),
      JSON.stringify(counts),
      sqlTimestamp(dialect, since),
      sqlTimestamp(dialect, until),
      sqlTimestamp(dialect, until),
    ]);
    return true;
  }
}
