import { Inject, Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { bindParams, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Project } from '../projects/project.entity';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { returnedRows } from '../tasks/task-rows';
import { ToggleReaperDto } from './dto/toggle-reaper.dto';
import { ExecutorRun } from './executor-run.entity';
import { OrphanedRuns, OrphanMarks } from './orphan-marks';
import { OrphanReaperState } from './orphan-reaper-state.entity';
import { RegisteredMachine } from './registered-machine.entity';
import { Worktree } from './worktree.entity';

export interface ReaperStateView {
  project_id: string;
  enabled: boolean;
  interval_seconds: number;
  machine_stale_seconds: number;
  session_idle_seconds: number;
  last_run_at: string | null;
  next_run_at: string | null;
  run_count: number;
  orphaned_runs_total: number;
  flagged_worktrees_total: number;
}

type Holder = { machine_id: string | null; session_id: string | null };

/**
 * The orphan reaper of a project: runs and worktrees whose machine stopped its
 * heartbeat (SERVICE_MACHINE_STALE_SECONDS) or whose session is closed or
 * silent (SERVICE_ORPHAN_SESSION_IDLE_SECONDS) are marked (runs `orphaned`,
 * worktrees `pending_cleanup`). On by default; the toggle turns it off and on.
 */
@Injectable()
export class OrphanReaperService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly marks: OrphanMarks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async state(projectId: string): Promise<ReaperStateView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return this.view(projectId, await m.findOneBy(OrphanReaperState, { project_id: projectId }));
    });
  }

  async toggle(projectId: string, input: ToggleReaperDto): Promise<ReaperStateView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await this.ensureRow(m, projectId);
      const row = await m.findOneByOrFail(OrphanReaperState, { project_id: projectId });
      const enabled = input.enabled ?? !row.enabled;
      await m.update(OrphanReaperState, { project_id: projectId }, { enabled, updated_at: this.clock.now() });
      return this.view(projectId, { ...row, enabled });
    });
  }

  /** The projects of the current tenant (the background pass walks them). */
  async projectIds(): Promise<string[]> {
    return this.db.read(async (m) => (await m.find(Project, { select: { id: true } })).map((p) => p.id));
  }

  /**
   * One pass over a project when its reaper is on and its interval has passed
   * since the last pass by any process; answers whether this call ran it. The
   * lease is the conditional UPDATE of `last_run_at`: a second process waits
   * for the first one's transaction, then finds the interval not yet passed.
   *
   * On Postgres the lease is one statement, a transaction of its own (one round trip), that also
   * says whether the project has a running run or an active worktree; only then is a second
   * transaction opened to mark what is orphaned. Most projects have neither, and every one of
   * them is passed every interval in every workspace. A project whose state row is made by that
   * statement (its first pass) takes the long way: the row is not yet there for the statement's update.
   */
  async passIfDue(projectId: string): Promise<boolean> {
    const now = this.clock.now();
    // A twentieth of the interval of slack, so that a timer firing a little early does not skip a whole interval.
    const due = new Date(now.getTime() - this.config.orphanReaperIntervalS * 950);
    if (this.db.dialect === 'postgres') {
      const [lease] = await this.db.writeStatement({ name: 'orphan_reaper_lease', text: LEASE_SQL, values: [projectId, now, due] });
      if (lease && !lease.made) {
        if (!lease.leased) return false;
        if (lease.candidates) await this.markLeased(projectId);
        return true;
      }
    }
    const dialect = this.db.dialect;
    const pass = await this.db.transaction(async (m) => {
      await this.ensureRow(m, projectId);
      const [sql, params] = bindParams(dialect, TAKE_LEASE_SQL, [projectId, sqlTimestamp(dialect, now), sqlTimestamp(dialect, due)]);
      if (returnedRows(await m.query(sql, params)).length === 0) return null;
      return this.mark(m, projectId);
    });
    if (!pass) return false;
    await this.marks.announce(pass);
    return true;
  }

  /** Marks what is orphaned in a project whose pass this process has leased, in a transaction of its own. */
  private async markLeased(projectId: string): Promise<void> {
    await this.marks.announce(await this.db.transaction((m) => this.mark(m, projectId)));
  }

  /** Marks the project's orphaned runs and worktrees and adds them to its totals. */
  private async mark(m: EntityManager, projectId: string): Promise<OrphanedRuns> {
    const runs = await this.orphanRuns(m, projectId);
    const worktrees = await this.flagOrphanWorktrees(m, projectId);
    if (runs.count + worktrees > 0) {
      await m.update(
        OrphanReaperState,
        { project_id: projectId },
        { orphaned_runs_total: () => `orphaned_runs_total + ${runs.count}`, flagged_worktrees_total: () => `flagged_worktrees_total + ${worktrees}` },
      );
    }
    return runs;
  }

  /** Marks the project's running runs whose machine or session is gone; the sessions that held their queued tasks are owed a notice. */
  async orphanRuns(m: EntityManager, projectId: string): Promise<OrphanedRuns> {
    const running = await m.findBy(ExecutorRun, { project_id: projectId, status: 'running' });
    const gone = await this.goneHolders(m, projectId, running);
    return this.marks.orphanRuns(
      m,
      running.filter((r) => gone(r)),
      (r) => gone(r) ?? '',
    );
  }

  /** Marks the project's active worktrees whose machine or session is gone; answers how many. */
  async flagOrphanWorktrees(m: EntityManager, projectId: string): Promise<number> {
    const active = await m.findBy(Worktree, { project_id: projectId, status: 'active' });
    const gone = await this.goneHolders(m, projectId, active);
    let count = 0;
    for (const worktree of active) {
      const reason = gone(worktree);
      if (reason) count += await this.marks.flagWorktreesOf(m, { id: worktree.id }, reason);
    }
    return count;
  }

  /** Why a row's machine or session is gone, or null while both (those it names) are alive. */
  private async goneHolders(m: EntityManager, projectId: string, rows: Holder[]): Promise<(row: Holder) => string | null> {
    const now = this.clock.now().getTime();
    const machineIds = [...new Set(rows.map((r) => r.machine_id).filter((id): id is string => Boolean(id)))];
    const sessionIds = [...new Set(rows.map((r) => r.session_id).filter((id): id is string => Boolean(id)))];
    const machines = new Map((machineIds.length ? await m.findBy(RegisteredMachine, { id: In(machineIds), project_id: projectId }) : []).map((x) => [x.id, x]));
    const sessions = new Map((sessionIds.length ? await m.findBy(Session, { id: In(sessionIds) }) : []).map((x) => [x.id, x]));
    return (row) => {
      if (row.machine_id) {
        const machine = machines.get(row.machine_id);
        if (!machine) return `machine ${row.machine_id} is no longer registered`;
        if (machine.last_heartbeat_at.getTime() <= now - this.config.machineStaleS * 1000)
          return `machine ${machine.name} has sent no heartbeat since ${machine.last_heartbeat_at.toISOString()}`;
      }
      if (row.session_id) {
        const session = sessions.get(row.session_id);
        if (!session || session.status === 'closed') return `session ${row.session_id} is closed`;
        if (session.last_seen.getTime() <= now - this.config.orphanSessionIdleS * 1000) return `session ${row.session_id} has been silent since ${session.last_seen.toISOString()}`;
      }
      return null;
    };
  }

  /** The project's state row, made on first use (nothing when the project is gone, as when deleted during a pass). */
  private async ensureRow(m: EntityManager, projectId: string) {
    const [sql, params] = bindParams(this.db.dialect, ENSURE_ROW_SQL, [projectId, sqlTimestamp(this.db.dialect, this.clock.now())]);
    await m.query(sql, params);
  }

  private view(projectId: string, row: OrphanReaperState | null): ReaperStateView {
    const interval = this.config.orphanReaperIntervalS;
    const enabled = row?.enabled ?? true;
    const last = row?.last_run_at ?? null;
    const next = enabled && interval > 0 ? (last ? new Date(last.getTime() + interval * 1000) : this.clock.now()) : null;
    return {
      project_id: projectId,
      enabled,
      interval_seconds: interval,
      machine_stale_seconds: this.config.machineStaleS,
      session_idle_seconds: this.config.orphanSessionIdleS,
      last_run_at: last ? last.toISOString() : null,
      next_run_at: next ? next.toISOString() : null,
      run_count: row?.run_count ?? 0,
      orphaned_runs_total: row?.orphaned_runs_total ?? 0,
      flagged_worktrees_total: row?.flagged_worktrees_total ?? 0,
    };
  }
}

/** Makes a project's state row if it has none. $1 the project, $2 now. */
const ENSURE_ROW_SQL = `INSERT INTO orphan_reapers (project_id, enabled, last_run_at, run_count, orphaned_runs_total, flagged_worktrees_total, updated_at)
  SELECT id, TRUE, NULL, 0, 0, 0, $2 FROM projects WHERE id = $1
  ON CONFLICT (project_id) DO NOTHING`;

/** A pass's lease: moves `last_run_at` when the reaper is on and the interval has passed. $1 the project, $2 now, $3 the last pass's latest time. */
const TAKE_LEASE_SQL = `UPDATE orphan_reapers SET last_run_at = $2, run_count = run_count + 1, updated_at = $2
  WHERE project_id = $1 AND enabled = TRUE AND (last_run_at IS NULL OR last_run_at <= $3)
  RETURNING project_id`;

/**
 * A pass's lease on Postgres in one statement: makes the project's state row if it has none
 * (`made`; the lease's update cannot see that row, so that pass takes the long way), takes the
 * lease (`leased`), and says whether anything could be orphaned (`candidates`). Parameters as above.
 */
const LEASE_SQL = `WITH made AS (${ENSURE_ROW_SQL} RETURNING project_id), leased AS (${TAKE_LEASE_SQL})
  SELECT EXISTS (SELECT 1 FROM made) AS made, EXISTS (SELECT 1 FROM leased) AS leased,
    EXISTS (SELECT 1 FROM executor_runs WHERE project_id = $1 AND status = 'running')
      OR EXISTS (SELECT 1 FROM worktrees WHERE project_id = $1 AND status = 'active') AS candidates`;
