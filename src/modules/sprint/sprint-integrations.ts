import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ContextSection, ContextSections } from '../../common/extensions/context-sections';
import { HandoffHooks } from '../../common/extensions/handoff-hooks';
import { SprintEvents } from './sprint-events.service';
import { SprintItem } from './sprint-item.entity';
import { fileNameWords, significantWords } from './sprint-text.util';
import { SprintTx } from './sprint-tx';
import { ACTIVE_STATUSES } from './sprint.constants';

/** Lines of the context block: most important first (the block drops lines from the end). */
const CONTEXT_LINES = 50;
/** Failed items shown in the context block, newest first. */
const FAILED_LINES = 10;
const TOUCHED_FILES_MAX = 100;
const STATUS_WEIGHT: Record<string, number> = { in_progress: 0, indeterminate: 1, provisional_complete: 2, pending: 3, todo: 4 };

/**
 * What the sprint engine adds to other modules' work: the "sprint_items"
 * section of the context block, and touches_files filled while a handoff
 * is generated.
 */
@Injectable()
export class SprintIntegrations implements OnModuleInit {
  constructor(
    private readonly sections: ContextSections,
    private readonly handoffHooks: HandoffHooks,
    private readonly events: SprintEvents,
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  onModuleInit() {
    this.sections.register('sprint_items', (m, projectId) => this.contextSection(m, projectId));
    this.sections.register('sprint_failed', (m, projectId) => this.failedSection(m, projectId));
    this.handoffHooks.register('sprint-touches-files', async (m, { projectId, changedFiles }) => {
      const tx = new SprintTx(m, this.db.dialect, projectId, this.clock.now());
      await this.fillTouchedFiles(tx, changedFiles);
      this.events.publish(tx.changes);
    });
  }

  /** Active items with their status: by priority, in-progress work first within a priority, then oldest. */
  async contextSection(m: EntityManager, projectId: string): Promise<ContextSection | null> {
    const items = await m.find(SprintItem, { where: { project_id: projectId, status: In([...ACTIVE_STATUSES]) }, order: { priority_rank: 'ASC', added_at: 'ASC' } });
    if (items.length === 0) return null;
    items.sort((a, b) => a.priority_rank - b.priority_rank || STATUS_WEIGHT[a.status] - STATUS_WEIGHT[b.status] || a.added_at.getTime() - b.added_at.getTime());
    const lines = items.slice(0, CONTEXT_LINES).map((i) => {
      const extras = [i.priority, i.slug, i.wave, i.blocker_kind ? `blocked: ${i.blocker_kind}` : null].filter(Boolean).join(', ');
      return `[${i.status}] ${i.title} (${extras})`;
    });
    if (items.length > CONTEXT_LINES) lines.push(`... and ${items.length - CONTEXT_LINES} more active items`);
    return { key: 'sprint_items', title: 'Sprint items', order: 30, lines };
  }

  /** Items that failed, newest first, with the last note (their reason): work someone must look at again. */
  async failedSection(m: EntityManager, projectId: string): Promise<ContextSection | null> {
    const failed = await m.find(SprintItem, { where: { project_id: projectId, status: 'failed' }, order: { completed_at: 'DESC', id: 'ASC' }, take: FAILED_LINES + 1 });
    if (failed.length === 0) return null;
    const lines = failed.slice(0, FAILED_LINES).map((i) => {
      const why = i.notes?.trim().split('\n').pop();
      return `[failed] ${i.title} (${i.priority}, ${i.slug})${why ? `: ${why}` : ''}`;
    });
    if (failed.length > FAILED_LINES) lines.push('... and more failed items (list_sprint_items with status failed)');
    return { key: 'sprint_failed', title: 'Failed sprint items', order: 31, lines };
  }

  /**
   * Adds to each active item's touches_files the changed files whose name
   * shares a word with the item's title ("login.controller.ts" and "Fix login
   * redirect"). The list accumulates while the item is active.
   */
  async fillTouchedFiles(tx: SprintTx, changedFiles: string[]): Promise<void> {
    if (changedFiles.length === 0) return;
    const files = changedFiles.map((f) => ({ path: f, words: fileNameWords(f) })).filter((f) => f.words.length > 0);
    const items = await tx.m.find(SprintItem, { where: { project_id: tx.projectId, status: In([...ACTIVE_STATUSES]) } });
    for (const item of items) {
      const titleWords = new Set(significantWords(item.title));
      const matched = files.filter((f) => f.words.some((w) => titleWords.has(w))).map((f) => f.path);
      if (matched.length === 0) continue;
      const current: string[] = JSON.parse(item.touches_files);
      const merged = [...new Set([...current, ...matched])].slice(0, TOUCHED_FILES_MAX);
      if (merged.length === current.length) continue;
      const next: SprintItem = { ...item, touches_files: JSON.stringify(merged), updated_at: tx.now };
      await tx.m.update(SprintItem, { id: item.id }, { touches_files: next.touches_files, updated_at: tx.now });
      tx.changed('updated', next);
    }
  }
}
