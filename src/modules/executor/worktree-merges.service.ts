import { Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { HitlDecision, HitlDecisionHooks } from '../hitl/hitl-decision-hooks';
import { HitlRequest } from '../hitl/hitl-request.entity';
import { HitlReview } from '../hitl/hitl-review.entity';
import { HitlService } from '../hitl/hitl.service';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { requireProject } from '../projects/require-project.util';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { MergeWorktreeDto } from './dto/merge-worktree.dto';
import { ExecutorError } from './executor.errors';
import { toWorktreeView, WorktreeView } from './executor.views';
import { Worktree } from './worktree.entity';

export interface MergeAnswer {
  worktree: WorktreeView;
  /** require_merge_approval as the project resolves it. */
  approval_required: boolean;
  /** The HITL request the merge waits for, while it waits. */
  hitl_request_id: string | null;
}

/**
 * Asking to merge a worktree. Baton does not merge on a machine: it says
 * whether the executor may. With require_merge_approval the merge waits for a
 * person (a HITL request): merge_status is `awaiting_approval`, then
 * `approved` or `declined`; without it a merge is approved at once.
 */
@Injectable()
export class WorktreeMergesService implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly settings: ProjectSettingsService,
    private readonly hitl: HitlService,
    private readonly hooks: HitlDecisionHooks,
  ) {}

  onModuleInit(): void {
    this.hooks.register((request, decision) => this.decide(request, decision));
  }

  async merge(projectId: string, worktreeId: string, input: MergeWorktreeDto): Promise<MergeAnswer> {
    const { worktree, required, sessionId, pending } = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const worktree = await m.findOneBy(Worktree, { id: worktreeId, project_id: projectId });
      if (!worktree) throw ExecutorError.worktreeNotFound(worktreeId);
      if (worktree.status !== 'active') throw ExecutorError.worktreeNotActive(worktree.id, worktree.status);
      const required = (await this.settings.read(m, projectId)).require_merge_approval;
      const sessionId = input.session_id ?? worktree.session_id;
      if (input.session_id) await requireSessionOf(m, input.session_id, projectId);
      const pending = worktree.merge_status === 'awaiting_approval' ? await m.findOneBy(HitlReview, { kind: 'worktree_merge', subject: worktree.id, status: 'pending' }) : null;
      return { worktree, required, sessionId, pending };
    });
    // Asked again while it waits, or once approved: the same answer.
    if (pending) return { worktree: toWorktreeView(worktree), approval_required: true, hitl_request_id: pending.hitl_request_id };
    if (worktree.merge_status === 'approved') return { worktree: toWorktreeView(worktree), approval_required: required, hitl_request_id: null };
    if (!required) return { worktree: await this.setStatus(worktree, 'approved'), approval_required: false, hitl_request_id: null };
    if (!sessionId) throw ExecutorError.mergeSessionRequired(worktree.id);
    const request = await this.hitl.create(projectId, {
      session_id: sessionId,
      question: `Merge worktree ${worktree.path}${worktree.branch ? ` (branch ${worktree.branch})` : ''}? This project requires approval of merges: answer "approve" to let the executor merge it; dismiss to refuse.`,
      require_human: true,
    });
    const review: HitlReview = {
      id: randomUUID(),
      project_id: projectId,
      hitl_request_id: request.id,
      kind: 'worktree_merge',
      subject: worktree.id,
      payload: JSON.stringify({ path: worktree.path, branch: worktree.branch }),
      status: 'pending',
      outcome: null,
      created_at: this.clock.now(),
      decided_at: null,
    };
    await this.db.transaction((m) => m.insert(HitlReview, review));
    return { worktree: await this.setStatus(worktree, 'awaiting_approval'), approval_required: true, hitl_request_id: request.id };
  }

  private async decide(request: HitlRequest, decision: HitlDecision): Promise<void> {
    await this.db.transaction(async (m) => {
      const review = await m.findOneBy(HitlReview, { hitl_request_id: request.id, kind: 'worktree_merge', status: 'pending' });
      if (!review) return;
      const now = this.clock.now();
      const status = decision.approves ? 'approved' : 'declined';
      await m.update(HitlReview, { id: review.id, status: 'pending' }, { status: decision.approves ? 'applied' : 'declined', outcome: decision.answer, decided_at: now });
      await m.update(Worktree, { id: review.subject, merge_status: 'awaiting_approval' }, { merge_status: status, updated_at: now });
    });
  }

  private async setStatus(worktree: Worktree, status: 'approved' | 'awaiting_approval'): Promise<WorktreeView> {
    const now = this.clock.now();
    await this.db.transaction((m) => m.update(Worktree, { id: worktree.id }, { merge_status: status, updated_at: now }));
    return toWorktreeView({ ...worktree, merge_status: status, updated_at: now });
  }
}
