import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { RegisterWorktreeDto } from './dto/register-worktree.dto';
import { ExecutorError } from './executor.errors';
import { toWorktreeView, WorktreeView } from './executor.views';
import { MachinesService } from './machines.service';
import { OrphanReaperService } from './orphan-reaper.service';
import { Worktree } from './worktree.entity';

/**
 * Worktrees executors made. Baton cannot remove a directory on a machine: a
 * worktree whose machine or session is gone is marked `pending_cleanup`, the
 * executor removes it on disk and then deletes the record.
 */
@Injectable()
export class WorktreesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly machines: MachinesService,
    private readonly reaper: OrphanReaperService,
  ) {}

  /** Oldest first; `pendingOnly` lists those awaiting cleanup. */
  async list(projectId: string, pendingOnly = false): Promise<WorktreeView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const found = await m.find(Worktree, {
        where: { project_id: projectId, ...(pendingOnly ? { status: 'pending_cleanup' as const } : {}) },
        order: { created_at: 'ASC', id: 'ASC' },
      });
      return found.map(toWorktreeView);
    });
  }

  async register(projectId: string, input: RegisterWorktreeDto): Promise<WorktreeView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (input.machine_id) await this.machines.require(m, projectId, input.machine_id);
      if (input.session_id) await requireSessionOf(m, input.session_id, projectId, { active: true });
      const now = this.clock.now();
      const worktree: Worktree = {
        id: randomUUID(),
        project_id: projectId,
        machine_id: input.machine_id ?? null,
        session_id: input.session_id ?? null,
        path: input.path,
        branch: input.branch ?? null,
        status: 'active',
        cleanup_reason: null,
        sprint_item_id: null,
        merge_status: null,
        created_at: now,
        updated_at: now,
      };
      await m.insert(Worktree, worktree);
      return toWorktreeView(worktree);
    });
  }

  /** The executor removed it on disk: forget it. */
  async remove(projectId: string, worktreeId: string): Promise<void> {
    await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const result = await m.delete(Worktree, { id: worktreeId, project_id: projectId });
      if (!result.affected) throw ExecutorError.worktreeNotFound(worktreeId);
    });
  }

  /** Marks now, whatever the reaper's state, the worktrees whose machine or session is gone; answers them and every worktree awaiting cleanup. */
  async sweep(projectId: string): Promise<{ flagged: number; pending_cleanup: WorktreeView[] }> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const flagged = await this.reaper.flagOrphanWorktrees(m, projectId);
      const pending = await m.find(Worktree, { where: { project_id: projectId, status: 'pending_cleanup' }, order: { created_at: 'ASC', id: 'ASC' } });
      return { flagged, pending_cleanup: pending.map(toWorktreeView) };
    });
  }
}
