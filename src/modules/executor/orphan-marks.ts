import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { Clock } from '../../common/clock';
import { Task } from '../tasks/task.entity';
import { ExecutorRun } from './executor-run.entity';
import { Worktree } from './worktree.entity';

/**
 * How runs and worktrees are marked when what they depended on is gone (the
 * reaper, a sweep, a machine deregistered), inside the caller's transaction.
 * Each mark is conditional on the row's current status, so two markers never
 * count the same row twice.
 */
@Injectable()
export class OrphanMarks {
  constructor(private readonly clock: Clock) {}

  /** Running runs become `orphaned` (summary: why); a queued task they held goes back to pending for another executor. */
  async orphanRuns(m: EntityManager, runs: ExecutorRun[], why: (run: ExecutorRun) => string): Promise<number> {
    const now = this.clock.now();
    let count = 0;
    for (const run of runs) {
      const result = await m.update(ExecutorRun, { id: run.id, status: 'running' }, { status: 'orphaned', summary: why(run), finished_at: now, updated_at: now });
      if (!result.affected) continue;
      count++;
      if (run.task_id)
        await m.update(Task, { id: run.task_id, status: 'in_progress', source: 'enqueue' }, { status: 'pending', claimed_by: null, claimed_at: null, updated_at: now });
    }
    return count;
  }

  /** Active worktrees matching `where` await cleanup. */
  async flagWorktreesOf(m: EntityManager, where: FindOptionsWhere<Worktree>, reason: string): Promise<number> {
    const result = await m.update(Worktree, { ...where, status: 'active' }, { status: 'pending_cleanup', cleanup_reason: reason, updated_at: this.clock.now() });
    return result.affected ?? 0;
  }
}
