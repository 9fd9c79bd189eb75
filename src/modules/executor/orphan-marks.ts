import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { publishTaskChanged } from '../tasks/task-changed.util';
import { NewNotice, RecordedNotice, SessionNotices } from '../sessions/session-notices.service';
import { lostTaskClaim } from '../tasks/task-claim-lost.util';
import { Task } from '../tasks/task.entity';
import { ExecutorRun } from './executor-run.entity';
import { Worktree } from './worktree.entity';

/** Runs marked orphaned, and the notices owed to the sessions whose queued task went back to the queue. */
export interface OrphanedRuns {
  count: number;
  /** Recorded in the caller's transaction. */
  told: RecordedNotice[];
  /** Tasks put back in the queue (boards show their status). */
  requeued: Task[];
}

/**
 * How runs and worktrees are marked when what they depended on is gone (the
 * reaper, a sweep, a machine deregistered), inside the caller's transaction.
 * Each mark is conditional on the row's current status, so two markers never
 * count the same row twice.
 */
@Injectable()
export class OrphanMarks {
  constructor(
    private readonly clock: Clock,
    private readonly notices: SessionNotices,
    private readonly realtime: RealtimeEvents,
  ) {}

  /**
   * Running runs become `orphaned` (summary: why); a queued task they held goes back to pending for
   * another executor, and the session that held it (the task's claimer, else the run's session) is
   * owed a `claim_lost` notice.
   */
  async orphanRuns(m: EntityManager, runs: ExecutorRun[], why: (run: ExecutorRun) => string): Promise<OrphanedRuns> {
    const now = this.clock.now();
    let count = 0;
    const lost: NewNotice[] = [];
    const requeued: Task[] = [];
    for (const run of runs) {
      const result = await m.update(ExecutorRun, { id: run.id, status: 'running' }, { status: 'orphaned', summary: why(run), finished_at: now, updated_at: now });
      if (!result.affected) continue;
      count++;
      if (!run.task_id) continue;
      const task = await m.findOneBy(Task, { id: run.task_id, status: 'in_progress', source: 'enqueue' });
      if (!task) continue;
      const back = await m.update(Task, { id: task.id, status: 'in_progress', source: 'enqueue' }, { status: 'pending', claimed_by: null, claimed_at: null, updated_at: now });
      if (!back.affected) continue;
      requeued.push({ ...task, status: 'pending', claimed_by: null, claimed_at: null, updated_at: now });
      const notice = lostTaskClaim(task, now, task.claimed_by ?? run.session_id);
      if (notice) lost.push(notice);
    }
    return { count, told: await this.notices.record(m, lost), requeued };
  }

  /** Once the transaction of `orphanRuns` has committed: the requeued tasks' changes, and each notice's message. */
  async announce(orphaned: OrphanedRuns): Promise<void> {
    for (const task of orphaned.requeued) publishTaskChanged(this.realtime, task, 'requeued');
    await this.notices.announce(orphaned.told);
  }

  /** Active worktrees matching `where` await cleanup. */
  async flagWorktreesOf(m: EntityManager, where: FindOptionsWhere<Worktree>, reason: string): Promise<number> {
    const result = await m.update(Worktree, { ...where, status: 'active' }, { status: 'pending_cleanup', cleanup_reason: reason, updated_at: this.clock.now() });
    return result.affected ?? 0;
  }
}
