import { Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';
import { sqlTimestamp } from '../../../libs/tenancy';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { SprintWaveSummary } from './sprint-wave-summary.entity';
import { queryRows } from './sprint-store.util';
import { SprintTx } from './sprint-tx';
import { highestWaveNumber, labelWaves, planWaves } from './sprint-waves.planner';
import { ACTIVE_STATUSES, TERMINAL_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

export interface WaveAssignment {
  version: string | null;
  wave_count: number;
  assigned: number;
  waves: { wave: string; items: { id: string; slug: string; title: string }[] }[];
  blocked_count: number;
  undeclared_count: number;
}

export interface WaveSummaryView {
  project_id: string;
  wave: string;
  completed_at: string;
  item_count: number;
  counts: Record<string, number>;
  items: { id: string; slug: string; title: string; status: string; completed_at: string | null }[];
}

/**
 * Waves: groups of pending items that can run in parallel (the rule is
 * planWaves'). This service loads the items, asks the planner, and writes
 * each item's new label.
 */
@Injectable()
export class SprintWaves {
  constructor(private readonly sprint: SprintDb) {}

  async assign(projectId: string, version?: string): Promise<WaveAssignment> {
    return this.sprint.run(projectId, (tx) => this.assignIn(tx, version));
  }

  private async assignIn(tx: SprintTx, version?: string): Promise<WaveAssignment> {
    const all = await tx.m.find(SprintItem, { where: { project_id: tx.projectId }, order: { priority_rank: 'ASC', added_at: 'ASC', id: 'ASC' } });
    const plan = planWaves(all, version);
    const labelled = labelWaves(plan.waves, await this.highestWaveInUse(tx, plan.planned));
    for (const { label, items } of labelled) {
      for (const item of items) await this.relabel(tx, item, label);
    }
    for (const item of plan.blocked) await this.relabel(tx, item, null);
    return {
      version: version ?? null,
      wave_count: labelled.length,
      assigned: labelled.reduce((sum, w) => sum + w.items.length, 0),
      waves: labelled.map(({ label, items }) => ({ wave: label, items: items.map((i) => ({ id: i.id, slug: i.slug, title: i.title })) })),
      blocked_count: plan.blocked.length,
      undeclared_count: plan.undeclared,
    };
  }

  private async relabel(tx: SprintTx, item: SprintItem, wave: string | null): Promise<void> {
    if (item.wave === wave) return;
    await tx.m.update(SprintItem, { id: item.id }, { wave, updated_at: tx.now });
    tx.changed('waves_assigned', { ...item, wave, updated_at: tx.now });
  }

  /** The highest wave number still in use: on items the plan does not relabel, and on completion records. */
  private async highestWaveInUse(tx: SprintTx, relabelled: Set<string>): Promise<number> {
    const items = await tx.m.find(SprintItem, { select: { id: true, wave: true }, where: { project_id: tx.projectId, wave: Not(IsNull()) } });
    const summaries = await tx.m.find(SprintWaveSummary, { select: { wave: true }, where: { project_id: tx.projectId } });
    return highestWaveNumber([...items.filter((i) => !relabelled.has(i.id)).map((i) => i.wave), ...summaries.map((s) => s.wave)]);
  }

  /**
   * Writes the completion record of `wave` once its last active item has
   * finished. The insert does nothing when a record exists: it is immutable.
   */
  async recordIfComplete(tx: SprintTx, wave: string): Promise<void> {
    const items = await tx.m.find(SprintItem, { where: { project_id: tx.projectId, wave }, order: { added_at: 'ASC', id: 'ASC' } });
    if (items.length === 0 || items.some((i) => !TERMINAL_STATUSES.includes(i.status))) return;
    const counts: Record<string, number> = {};
    for (const i of items) counts[i.status] = (counts[i.status] ?? 0) + 1;
    const summary = items.map((i) => ({ id: i.id, slug: i.slug, title: i.title, status: i.status, completed_at: i.completed_at?.toISOString() ?? null }));
    await queryRows(
      tx.m,
      tx.dialect,
      `INSERT INTO sprint_wave_summaries (project_id, wave, completed_at, item_count, counts, items) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (project_id, wave) DO NOTHING`,
      [tx.projectId, wave, sqlTimestamp(tx.dialect, tx.now), items.length, JSON.stringify(counts), JSON.stringify(summary)],
    );
  }

  async summary(projectId: string, wave: string): Promise<WaveSummaryView> {
    return this.sprint.run(projectId, async (tx) => {
      const record = await tx.m.findOneBy(SprintWaveSummary, { project_id: projectId, wave });
      if (record) {
        return {
          project_id: record.project_id,
          wave: record.wave,
          completed_at: record.completed_at.toISOString(),
          item_count: record.item_count,
          counts: JSON.parse(record.counts) as Record<string, number>,
          items: JSON.parse(record.items) as WaveSummaryView['items'],
        };
      }
      const total = await tx.m.countBy(SprintItem, { project_id: projectId, wave });
      if (total === 0) throw SprintError.waveNotFound(wave);
      const active = await tx.m.count(SprintItem, { where: { project_id: projectId, wave, status: In([...ACTIVE_STATUSES]) } });
      throw SprintError.waveNotComplete(wave, active);
    });
  }
}
