import { BoardReadCache } from '../push/board-read-cache.service';
import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { projectNameKey } from '../projects/project-name.util';
import { SetWorkspaceDecisionDto } from './dto/set-workspace-decision.dto';
import { WorkspaceDecision } from './workspace-decision.entity';
import { toWorkspaceDecisionView, WorkspaceDecisionView } from './workspace-decision.view';
import { WorkspaceLayerError } from './workspace-layer.errors';

/**
 * Decisions of the whole workspace. Setting a decision whose title matches an
 * active one (any case, any spacing) supersedes it: the old one is kept,
 * linked both ways, and only the newest shows in context blocks. Setting the
 * same title and body again changes nothing.
 */
@Injectable()
export class WorkspaceDecisionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly board: BoardReadCache,
  ) {}

  /** A write of what every project's context block shows first: the board-read cache drops it. */
  private async write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.board.changed();
    return result;
  }

  async list(includeSuperseded = false): Promise<WorkspaceDecisionView[]> {
    const decisions = await this.db.transaction((m) =>
      m.find(WorkspaceDecision, { where: includeSuperseded ? {} : { status: 'active' }, order: { created_at: 'DESC', id: 'DESC' } }),
    );
    return decisions.map(toWorkspaceDecisionView);
  }

  async set(input: SetWorkspaceDecisionDto): Promise<WorkspaceDecisionView> {
    const key = projectNameKey(input.title);
    const body = input.body ?? '';
    return this.write(async (m) => {
      await this.lock(m);
      let replaced: WorkspaceDecision | null;
      if (input.supersedes) {
        replaced = await m.findOneBy(WorkspaceDecision, { id: input.supersedes });
        if (!replaced) throw WorkspaceLayerError.decisionNotFound(input.supersedes);
        if (replaced.status !== 'active') throw WorkspaceLayerError.decisionNotActive(replaced.id);
      } else {
        replaced = await m.findOne(WorkspaceDecision, { where: { title_key: key, status: 'active' }, order: { created_at: 'DESC', id: 'DESC' } });
        if (replaced && replaced.title === input.title && replaced.body === body) return toWorkspaceDecisionView(replaced);
      }
      const now = this.clock.now();
      const decision: WorkspaceDecision = {
        id: randomUUID(),
        title: input.title,
        title_key: key,
        body,
        status: 'active',
        supersedes_id: replaced?.id ?? null,
        superseded_by_id: null,
        created_at: now,
        updated_at: now,
      };
      await m.insert(WorkspaceDecision, decision);
      if (replaced) await m.update(WorkspaceDecision, { id: replaced.id }, { status: 'superseded', superseded_by_id: decision.id, updated_at: now });
      return toWorkspaceDecisionView(decision);
    });
  }

  async remove(id: string): Promise<void> {
    const result = await this.write((m) => m.delete(WorkspaceDecision, { id }));
    if (!result.affected) throw WorkspaceLayerError.decisionNotFound(id);
  }

  /** Two sets of one title at once on Postgres must not both supersede the same decision: they queue here. */
  private async lock(m: EntityManager): Promise<void> {
    if (m.connection.options.type !== 'postgres') return;
    await m.query(`SELECT pg_advisory_xact_lock(hashtext(current_schema() || ':workspace_decisions'))`);
  }
}
