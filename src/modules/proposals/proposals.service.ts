import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { SprintDb } from '../sprint/sprint-db.service';
import { SprintItemsService } from '../sprint/sprint-items.service';
import { SprintItemView, toSprintItemView } from '../sprint/sprint-item.view';
import { AddProposalDto } from './dto/add-proposal.dto';
import { ListProposalsDto } from './dto/list-proposals.dto';
import { PromoteProposalDto } from './dto/promote-proposal.dto';
import { isReviewable, nextProposalStatus } from './proposal-transitions.util';
import { PROMOTED_VERSION_DEFAULT, PROPOSAL_LIST_LIMIT_DEFAULT, ProposalDirection } from './proposals.constants';
import { ProposalError } from './proposals.errors';
import { WorkspaceProposal } from './workspace-proposal.entity';
import { toWorkspaceProposalView, WorkspaceProposalView } from './workspace-proposal.view';

/**
 * Workspace proposals: the human-only store of cross-project ideas (MCP tools
 * only). They are not sprint items, so nothing can claim them; promoting one
 * creates a sprint item in the chosen project, in the same transaction.
 */
@Injectable()
export class ProposalsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly sprint: SprintDb,
    private readonly items: SprintItemsService,
  ) {}

  async add(input: AddProposalDto): Promise<WorkspaceProposalView> {
    const now = this.clock.now();
    const proposal: WorkspaceProposal = {
      id: randomUUID(),
      title: input.title,
      body: input.body ?? '',
      status: 'raw',
      human_id: input.human_id ?? null,
      sprint_item_id: null,
      promoted_project_id: null,
      created_at: now,
      updated_at: now,
      promoted_at: null,
    };
    await this.db.transaction((m) => m.insert(WorkspaceProposal, proposal));
    return toWorkspaceProposalView(proposal);
  }

  async list(query: ListProposalsDto): Promise<{ proposals: WorkspaceProposalView[]; total: number }> {
    const where = query.status ? { status: query.status } : {};
    const [rows, total] = await this.db.read((m) =>
      m.findAndCount(WorkspaceProposal, { where, order: { created_at: 'DESC', id: 'DESC' }, take: query.limit ?? PROPOSAL_LIST_LIMIT_DEFAULT, skip: query.offset ?? 0 }),
    );
    return { proposals: rows.map(toWorkspaceProposalView), total };
  }

  /** One step along the review chain; the step is a conditional update, so of two racing moves only one lands. */
  async advance(id: string, direction: ProposalDirection = 'forward'): Promise<WorkspaceProposalView & { previous_status: string }> {
    return this.db.transaction(async (m) => {
      const proposal = await this.require(m, id);
      const to = nextProposalStatus(proposal.status, direction);
      if (!to) throw ProposalError.badTransition(proposal.status, direction);
      const now = this.clock.now();
      const moved = await m.update(WorkspaceProposal, { id, status: proposal.status }, { status: to, updated_at: now });
      if (!moved.affected) throw ProposalError.badTransition((await this.require(m, id)).status, direction);
      return { ...toWorkspaceProposalView({ ...proposal, status: to, updated_at: now }), previous_status: proposal.status };
    });
  }

  /** Promotes a raw or investigating proposal: a pending sprint item in `project_id`, linked both ways. */
  async promote(id: string, input: PromoteProposalDto): Promise<{ proposal: WorkspaceProposalView; sprint_item: SprintItemView }> {
    return this.sprint.run(
      input.project_id,
      async (tx) => {
        const proposal = await this.require(tx.m, id);
        if (!isReviewable(proposal.status)) throw ProposalError.notReviewable(proposal.status);
        const notes = `Promoted from workspace proposal ${proposal.id}.${proposal.body ? `\n\n${proposal.body}` : ''}`;
        const item = await this.items.createIn(tx, {
          title: proposal.title,
          version: input.version ?? PROMOTED_VERSION_DEFAULT,
          notes,
          force: true,
          human_id: proposal.human_id ?? undefined,
        });
        const changes = { status: 'promoted' as const, sprint_item_id: item.id, promoted_project_id: input.project_id, promoted_at: tx.now, updated_at: tx.now };
        const moved = await tx.m.update(WorkspaceProposal, { id, status: proposal.status }, changes);
        if (!moved.affected) throw ProposalError.notReviewable((await this.require(tx.m, id)).status);
        return { proposal: toWorkspaceProposalView({ ...proposal, ...changes }), sprint_item: toSprintItemView(item) };
      },
      { retryOnUniqueViolation: true },
    );
  }

  private async require(m: EntityManager, id: string): Promise<WorkspaceProposal> {
    const proposal = await m.findOne(WorkspaceProposal, { where: { id } });
    if (!proposal) throw ProposalError.notFound(id);
    return proposal;
  }
}
