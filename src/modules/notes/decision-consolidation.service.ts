import { Injectable } from '@nestjs/common';
import { In, IsNull } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { ChatModel, ChatModelFailure } from '../../common/llm/chat-model';
import { lockProject } from '../projects/project-lock.util';
import { requireProject } from '../projects/require-project.util';
import { KnowledgeEvents } from './knowledge-events.service';
import { DecisionLogEntry } from './decision-log-entry.entity';
import { consolidationPrompt, ConsolidationGroup, parseConsolidation } from './decision-consolidation.util';
import { NoteError } from './notes.errors';

/** Entries shown to the model in one consolidation: the newest ones, as a prompt stays bounded. */
export const CONSOLIDATION_MAX_ENTRIES = 200;

export interface ConsolidationResult {
  /** Entries the model was shown (the newest live ones, at most CONSOLIDATION_MAX_ENTRIES). */
  considered: number;
  groups: ConsolidationGroup[];
  superseded_count: number;
}

/**
 * De-duplicates a project's decision log through the configured model
 * provider: the model groups entries that say the same; each duplicate is
 * linked to the entry kept (superseded_by_id), all in one transaction, and only
 * if the log is still as the model saw it. Nothing changes on any refusal.
 */
@Injectable()
export class DecisionConsolidationService {
  constructor(
    private readonly db: TenantDb,
    private readonly model: ChatModel,
    private readonly knowledge: KnowledgeEvents,
  ) {}

  async consolidate(projectId: string): Promise<ConsolidationResult> {
    const entries = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.find(DecisionLogEntry, { where: { project_id: projectId, superseded_by_id: IsNull() }, order: { created_at: 'DESC', id: 'DESC' }, take: CONSOLIDATION_MAX_ENTRIES });
    });
    if (!this.model.configured) throw NoteError.consolidationNotConfigured();
    if (entries.length < 2) return { considered: entries.length, groups: [], superseded_count: 0 };
    const prompt = consolidationPrompt(entries);
    let answer: string;
    try {
      answer = await this.model.complete([
        { role: 'system', content: prompt.system },
        { role: 'user', content: prompt.user },
      ]);
    } catch (error) {
      if (error instanceof ChatModelFailure) throw NoteError.consolidationFailed(error.message);
      throw error;
    }
    const parsed = parseConsolidation(answer, new Set(entries.map((e) => e.id)));
    if (!parsed.ok) throw NoteError.consolidationFailed(`its answer was refused: ${parsed.reason}`);
    const duplicates = parsed.groups.flatMap((g) => g.duplicate_ids);
    if (duplicates.length > 0) await this.apply(projectId, parsed.groups);
    return { considered: entries.length, groups: parsed.groups, superseded_count: duplicates.length };
  }

  private async apply(projectId: string, groups: ConsolidationGroup[]): Promise<void> {
    const ids = groups.flatMap((g) => [g.keep_id, ...g.duplicate_ids]);
    await this.knowledge.after(
      projectId,
      'decision_log',
      this.db.transaction(async (m) => {
        // Locked: two runs applying at once queue, and the second sees the first's links.
        await lockProject(m, projectId);
        const live = await m.count(DecisionLogEntry, { where: { project_id: projectId, id: In(ids), superseded_by_id: IsNull() } });
        if (live !== ids.length) throw NoteError.consolidationStale();
        for (const group of groups) {
          await m.update(DecisionLogEntry, { project_id: projectId, id: In(group.duplicate_ids) }, { superseded_by_id: group.keep_id });
        }
      }),
    );
  }
}
