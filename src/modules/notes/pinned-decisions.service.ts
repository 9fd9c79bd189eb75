import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { lockProject } from '../projects/project-lock.util';
import { requireProject } from '../projects/require-project.util';
import { PinDecisionDto } from './dto/pin-decision.dto';
import { UpdatePinnedDecisionDto } from './dto/update-pinned-decision.dto';
import { PinnedDecision } from './pinned-decision.entity';
import { PinnedDecisionView, toPinnedDecisionView } from './pinned-decision.view';
import { NoteError } from './notes.errors';
import { KnowledgeEvents } from './knowledge-events.service';

const NEWEST_FIRST = { created_at: 'DESC', id: 'DESC' } as const;

/**
 * Decisions pinned to a project's context. At most `max_pinned_decisions`
 * (project setting, default 20) are active: pinning one more is refused until
 * one is archived or superseded. Every write that counts takes the project's
 * lock, so concurrent pins cannot overshoot the limit.
 */
@Injectable()
export class PinnedDecisionsService {
  constructor(
    private readonly knowledge: KnowledgeEvents,
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly settings: ProjectSettingsService,
  ) {}

  /** Active decisions, newest first; with `includeSuperseded`, every decision the project ever pinned. */
  async list(projectId: string, includeSuperseded = false): Promise<PinnedDecisionView[]> {
    const decisions = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(PinnedDecision, { where: { project_id: projectId, ...(includeSuperseded ? {} : { status: 'active' as const }) }, order: NEWEST_FIRST });
    });
    return decisions.map(toPinnedDecisionView);
  }

  async pin(projectId: string, input: PinDecisionDto): Promise<PinnedDecisionView> {
    return this.knowledge.after(
      projectId,
      'pinned_decisions',
      this.db.transaction(async (m) => {
        await lockProject(m, projectId);
        await this.assertRoomFor(m, projectId, 1);
        return toPinnedDecisionView(await this.insert(m, projectId, input, this.clock.now()));
      }),
    );
  }

  /** Edits in place, archives/re-activates, or supersedes (new_title/new_body). */
  async update(projectId: string, decisionId: string, input: UpdatePinnedDecisionDto): Promise<PinnedDecisionView> {
    const supersede = input.new_title !== undefined || input.new_body !== undefined;
    const edit = input.title !== undefined || input.body !== undefined || input.status !== undefined;
    if (supersede && edit) throw RequestError.invalidInput('either edit (title, body, status) or supersede (new_title, new_body), not both');
    if (!supersede && !edit) throw RequestError.invalidInput('give title, body or status to edit, or new_title/new_body to supersede');
    return this.knowledge.after(
      projectId,
      'pinned_decisions',
      this.db.transaction(async (m) => {
        await lockProject(m, projectId);
        const decision = await this.require(m, projectId, decisionId);
        const now = this.clock.now();
        if (supersede) return toPinnedDecisionView(await this.supersede(m, decision, input, now));
        if (decision.status === 'superseded') throw NoteError.decisionNotActive(decision.id, decision.status);
        if (decision.status === 'archived' && (input.title !== undefined || input.body !== undefined) && input.status !== 'active') {
          throw NoteError.decisionNotActive(decision.id, decision.status);
        }
        if (input.status === 'active' && decision.status === 'archived') {
          await this.assertRoomFor(m, projectId, 1);
          decision.archived_at = null;
        }
        if (input.status === 'archived' && decision.status === 'active') decision.archived_at = now;
        if (input.status !== undefined) decision.status = input.status;
        if (input.title !== undefined) decision.title = input.title;
        if (input.body !== undefined) decision.body = input.body;
        if (input.human_id !== undefined) decision.human_id = input.human_id;
        decision.updated_at = now;
        const { id: _id, project_id: _p, ...fields } = decision;
        await m.update(PinnedDecision, { id: decision.id }, fields);
        return toPinnedDecisionView(decision);
      }),
    );
  }

  async remove(projectId: string, decisionId: string): Promise<void> {
    await this.knowledge.after(
      projectId,
      'pinned_decisions',
      this.db.transaction(async (m) => {
        await requireProject(m, projectId);
        const result = await m.delete(PinnedDecision, { id: decisionId, project_id: projectId });
        if (!result.affected) throw NoteError.decisionNotFound(decisionId);
      }),
    );
  }

  /** Archives the `count` oldest active decisions; answers them, oldest first (empty when none was active). */
  async archiveOldest(projectId: string, count = 1): Promise<{ archived: PinnedDecisionView[] }> {
    return this.knowledge.after(
      projectId,
      'pinned_decisions',
      this.db.transaction(async (m) => {
        await lockProject(m, projectId);
        const oldest = await m.find(PinnedDecision, { where: { project_id: projectId, status: 'active' }, order: { created_at: 'ASC', id: 'ASC' }, take: count });
        const now = this.clock.now();
        for (const d of oldest) {
          Object.assign(d, { status: 'archived', archived_at: now, updated_at: now });
          await m.update(PinnedDecision, { id: d.id }, { status: 'archived', archived_at: now, updated_at: now });
        }
        return { archived: oldest.map(toPinnedDecisionView) };
      }),
    );
  }

  /**
   * Replaces the active set in one transaction: the current active decisions
   * are archived (kept as history), the given ones pinned in the order given
   * (the first is the newest). More than max_pinned_decisions changes nothing.
   */
  async replaceAll(projectId: string, decisions: PinDecisionDto[]): Promise<PinnedDecisionView[]> {
    return this.knowledge.after(
      projectId,
      'pinned_decisions',
      this.db.transaction(async (m) => {
        await lockProject(m, projectId);
        const { max_pinned_decisions: limit } = await this.settings.read(m, projectId);
        if (decisions.length > limit) throw NoteError.pinnedLimitReached(limit, null, decisions.length);
        const now = this.clock.now();
        await m.update(PinnedDecision, { project_id: projectId, status: 'active' }, { status: 'archived', archived_at: now, updated_at: now });
        const created: PinnedDecision[] = [];
        for (const [i, d] of decisions.entries()) {
          created.push(await this.insert(m, projectId, d, new Date(now.getTime() + (decisions.length - 1 - i))));
        }
        return created.map(toPinnedDecisionView);
      }),
    );
  }

  private async supersede(m: EntityManager, old: PinnedDecision, input: UpdatePinnedDecisionDto, now: Date): Promise<PinnedDecision> {
    if (old.status !== 'active') throw NoteError.decisionNotActive(old.id, old.status);
    const next = await this.insert(
      m,
      old.project_id,
      { title: input.new_title ?? old.title, body: input.new_body ?? old.body, human_id: input.human_id ?? old.human_id ?? undefined },
      now,
      old.id,
    );
    await m.update(PinnedDecision, { id: old.id }, { status: 'superseded', superseded_by_id: next.id, updated_at: now });
    return next;
  }

  private async insert(m: EntityManager, projectId: string, input: PinDecisionDto, at: Date, supersedes: string | null = null): Promise<PinnedDecision> {
    const decision: PinnedDecision = {
      id: randomUUID(),
      project_id: projectId,
      title: input.title,
      body: input.body ?? '',
      status: 'active',
      supersedes_id: supersedes,
      superseded_by_id: null,
      human_id: input.human_id ?? null,
      created_at: at,
      updated_at: at,
      archived_at: null,
    };
    await m.insert(PinnedDecision, decision);
    return decision;
  }

  private async assertRoomFor(m: EntityManager, projectId: string, more: number): Promise<void> {
    const { max_pinned_decisions: limit } = await this.settings.read(m, projectId);
    const active = await m.count(PinnedDecision, { where: { project_id: projectId, status: 'active' } });
    if (active + more <= limit) return;
    const oldest = await m.findOne(PinnedDecision, { where: { project_id: projectId, status: 'active' }, order: { created_at: 'ASC', id: 'ASC' } });
    throw NoteError.pinnedLimitReached(limit, oldest?.id ?? null);
  }

  private async require(m: EntityManager, projectId: string, id: string): Promise<PinnedDecision> {
    const decision = await m.findOneBy(PinnedDecision, { id, project_id: projectId });
    if (!decision) throw NoteError.decisionNotFound(id);
    return decision;
  }
}
