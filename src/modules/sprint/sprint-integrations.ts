import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ContextSection, ContextSections } from '../../common/extensions/context-sections';
import { HandoffHooks } from '../../common/extensions/handoff-hooks';
import { activeItemLines, FAILED_LINES, failedItemLines } from './sprint-context-lines.util';
import { SprintEvents } from './sprint-events.service';
import { SprintItem } from './sprint-item.entity';
import { namedFiles, touchedFilesWith } from './sprint-touched-files.util';
import { SprintTx } from './sprint-tx';
import { ACTIVE_STATUSES } from './sprint.constants';

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
    const lines = activeItemLines(items);
    return { key: 'sprint_items', title: 'Sprint items', order: 30, lines };
  }

  /** Items that failed, newest first, with the last note (their reason): work someone must look at again. */
  async failedSection(m: EntityManager, projectId: string): Promise<ContextSection | null> {
    const failed = await m.find(SprintItem, { where: { project_id: projectId, status: 'failed' }, order: { completed_at: 'DESC', id: 'ASC' }, take: FAILED_LINES + 1 });
    if (failed.length === 0) return null;
    const lines = failedItemLines(failed);
    return { key: 'sprint_failed', title: 'Failed sprint items', order: 31, lines };
  }

  /**
   * Adds to each active item's touches_files the changed files whose name
   * shares a word with the item's title (touchedFilesWith). The list
   * accumulates while the item is active.
   */
  async fillTouchedFiles(tx: SprintTx, changedFiles: string[]): Promise<void> {
    if (changedFiles.length === 0) return;
    const files = namedFiles(changedFiles);
    const items = await tx.m.find(SprintItem, { where: { project_id: tx.projectId, status: In([...ACTIVE_STATUSES]) } });
    for (const item of items) {
      const merged = touchedFilesWith(item, files);
      if (!merged) continue;
      const next: SprintItem = { ...item, touches_files: JSON.stringify(merged), updated_at: tx.now };
      await tx.m.update(SprintItem, { id: item.id }, { touches_files: next.touches_files, updated_at: tx.now });
      tx.changed('updated', next);
    }
  }
}
