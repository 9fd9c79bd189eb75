import { Injectable, OnModuleInit } from '@nestjs/common';
import { bindParams, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { requireProject } from '../projects/require-project.util';
import { SessionCloseHooks } from '../sessions/session-close-hooks';
import { SessionHandovers } from '../sessions/session-handovers';
import { ClaimTaskDto } from './dto/claim-task.dto';
import { ClaimableQueryDto } from './dto/claimable-query.dto';
import { DEFAULT_PAGE_SIZE } from './dto/page-query.dto';
import { ReleaseTaskDto } from './dto/release-task.dto';
import { requireSessionOf } from './session-of-project.util';
import { publishTaskChanged } from './task-changed.util';
import { returnedRows } from './task-rows';
import { Task } from './task.entity';
import { TaskView, toTaskView } from './task.view';
import { TaskError } from './tasks.errors';

export type ClaimResult =
  | { claimed: true; task: TaskView }
  /** Someone else was faster (claimed_by names them), the task is not pending, or nothing was left to claim. */
  | { claimed: false; claimed_by: string | null; task: TaskView | null };

/**
 * Claiming and releasing pending tasks. A claim is one conditional UPDATE
 * (`... WHERE status = 'pending'`), so however many sessions race for a task,
 * on however many instances sharing the database, exactly one gets it.
 */
@Injectable()
export class TaskClaimsService implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly closeHooks: SessionCloseHooks,
    private readonly handovers: SessionHandovers,
    private readonly realtime: RealtimeEvents,
  ) {}

  onModuleInit() {
    // A session that ends while working on a task hands it back to the queue.
    this.closeHooks.register('tasks', async (m, session) => {
      await m.update(Task, { claimed_by: session.id, status: 'in_progress' }, { status: 'pending', claimed_by: null, claimed_at: null, updated_at: this.clock.now() });
    });
    this.handovers.register('tasks', {
      move: async (m, from, to) => {
        const result = await m.update(Task, { claimed_by: from.id, status: 'in_progress' }, { claimed_by: to.id, updated_at: this.clock.now() });
        return result.affected ?? 0;
      },
      count: (m, sessionId) => m.countBy(Task, { claimed_by: sessionId, status: 'in_progress' }),
    });
  }

  /** Pending tasks nobody works on, oldest first: the order an executor should take them in. */
  async claimable(projectId: string, query: ClaimableQueryDto): Promise<TaskView[]> {
    const tasks = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(Task, { where: { project_id: projectId, status: 'pending' }, order: { seq: 'ASC' }, take: query.limit ?? DEFAULT_PAGE_SIZE });
    });
    return tasks.map(toTaskView);
  }

  async claim(projectId: string, input: ClaimTaskDto): Promise<ClaimResult> {
    const dialect = this.db.dialect;
    const result = await this.db.transaction(async (m): Promise<ClaimResult> => {
      await requireProject(m, projectId);
      const session = await requireSessionOf(m, input.session_id, projectId, { active: true });
      const now = sqlTimestamp(dialect, this.clock.now());
      // Without a task id: the oldest pending task; on Postgres, one no concurrent claimer has locked.
      const target = input.task_id
        ? '$4'
        : `(SELECT id FROM tasks WHERE project_id = $3 AND status = 'pending' ORDER BY seq LIMIT 1${dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''})`;
      const [sql, params] = bindParams(
        dialect,
        `UPDATE tasks SET status = 'in_progress', claimed_by = $1, claimed_at = $2, updated_at = $2
          WHERE id = ${target} AND project_id = $3 AND status = 'pending'
          RETURNING id`,
        input.task_id ? [session.id, now, projectId, input.task_id] : [session.id, now, projectId],
      );
      const rows = returnedRows<{ id: string }>(await m.query(sql, params));
      if (rows.length > 0) return { claimed: true as const, task: toTaskView(await m.findOneByOrFail(Task, { id: rows[0].id })) };
      if (!input.task_id) return { claimed: false as const, claimed_by: null, task: null };
      const task = await m.findOneBy(Task, { id: input.task_id, project_id: projectId });
      if (!task) throw TaskError.notFound(input.task_id);
      return { claimed: false as const, claimed_by: task.status === 'in_progress' ? task.claimed_by : null, task: toTaskView(task) };
    });
    if (result.claimed) publishTaskChanged(this.realtime, result.task, 'claimed');
    return result;
  }

  /** Hands a claimed task back (pending, unclaimed); only the session that claimed it may. */
  async release(projectId: string, input: ReleaseTaskDto): Promise<{ released: true; task: TaskView }> {
    const dialect = this.db.dialect;
    const result = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await requireSessionOf(m, input.session_id, projectId);
      const [sql, params] = bindParams(
        dialect,
        `UPDATE tasks SET status = 'pending', claimed_by = NULL, claimed_at = NULL, updated_at = $1
          WHERE id = $2 AND project_id = $3 AND status = 'in_progress' AND claimed_by = $4
          RETURNING id`,
        [sqlTimestamp(dialect, this.clock.now()), input.task_id, projectId, input.session_id],
      );
      const rows = returnedRows<{ id: string }>(await m.query(sql, params));
      const task = await m.findOneBy(Task, { id: input.task_id, project_id: projectId });
      if (!task) throw TaskError.notFound(input.task_id);
      if (rows.length > 0) return { released: true as const, task: toTaskView(task) };
      if (task.status !== 'in_progress') throw TaskError.notClaimed(task.id, task.status);
      throw TaskError.claimedByOther(task.id, task.claimed_by);
    });
    publishTaskChanged(this.realtime, result.task, 'released');
    return result;
  }
}
