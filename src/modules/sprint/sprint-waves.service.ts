import { Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';
import { sqlTimestamp } from '../../../libs/tenancy';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { SprintWaveSummary } from './sprint-wave-summary.entity';
import { queryRows } from './sprint-store.util';
import { SprintTx } from './sprint-tx';
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

const WAVE_LABEL = /^wave-(\d+)$/;

/**
 * Waves: groups of pending items that can run in parallel. An item's wave
 * comes after the waves of what it depends on; two items touching the same
 * resource never share a wave. An item that declares no resources conflicts
 * with nothing declared, so it takes the first wave after its dependencies
 * like any other: isolating it would add a whole wave per such item, and the
 * file lock gate still stops two sessions editing one locked file.
 */
@Injectable()
export class SprintWaves {
  constructor(private readonly sprint: SprintDb) {}

  async assign(projectId: string, version?: string): Promise<WaveAssignment> {
    return this.sprint.run(projectId, (tx) => this.assignIn(tx, version));
  }

  private async assignIn(tx: SprintTx, version?: string): Promise<WaveAssignment> {
    const all = await tx.m.find(SprintItem, { where: { project_id: tx.projectId }, order: { priority_rank: 'ASC', added_at: 'ASC', id: 'ASC' } });
    const byId = new Map(all.map((i) => [i.id, i]));
    const planned = all.filter((i) => (i.status === 'pending' || i.status === 'todo') && i.blocker_kind === null && (version === undefined || i.version === version));
    const inPlan = new Set(planned.map((i) => i.id));

    // A dependency cycle can never drain: refuse it, naming it.
    for (const item of planned) {
      const path: SprintItem[] = [item];
      const seen = new Set([item.id]);
      for (let cur = item; cur.depends_on && byId.has(cur.depends_on);) {
        cur = byId.get(cur.depends_on)!;
        if (seen.has(cur.id)) {
          const start = path.findIndex((p) => p.id === cur.id);
          throw SprintError.dependencyCycle([...path.slice(start), cur].map((p) => p.slug));
        }
        seen.add(cur.id);
        path.push(cur);
      }
    }

    // Blocked: somewhere up its chain is an item that will not finish by itself (manual or superseded blocker, a stop after a failure).
    const blocked = new Set<string>();
    const isBlocked = (item: SprintItem): boolean => {
      for (let cur = item; cur.depends_on;) {
        const dep = byId.get(cur.depends_on);
        if (!dep) return false;
        if (dep.status === 'failed' && cur.failure_mode === 'stop') return true;
        if (ACTIVE_STATUSES.includes(dep.status) && dep.blocker_kind !== null) return true;
        if (!inPlan.has(dep.id)) return false;
        cur = dep;
      }
      return false;
    };
    for (const item of planned) if (isBlocked(item)) blocked.add(item.id);

    const depth = new Map<string, number>();
    const depthOf = (item: SprintItem): number => {
      const known = depth.get(item.id);
      if (known !== undefined) return known;
      const dep = item.depends_on && inPlan.has(item.depends_on) ? byId.get(item.depends_on)! : null;
      const d = dep ? depthOf(dep) + 1 : 0;
      depth.set(item.id, d);
      return d;
    };
    const schedulable = planned.filter((i) => !blocked.has(i.id));
    // Already in serving order (priority, age); a stable sort by depth keeps it within a depth.
    const ordered = [...schedulable].sort((a, b) => depthOf(a) - depthOf(b));

    const waves: { items: SprintItem[]; resources: Set<string> }[] = [];
    const waveOf = new Map<string, number>();
    let undeclared = 0;
    for (const item of ordered) {
      const resources: string[] = JSON.parse(item.touches_resources);
      if (resources.length === 0) undeclared++;
      const dep = item.depends_on && waveOf.has(item.depends_on) ? waveOf.get(item.depends_on)! : -1;
      let w = dep + 1;
      while (w < waves.length && resources.some((r) => waves[w].resources.has(r))) w++;
      if (w === waves.length) waves.push({ items: [], resources: new Set() });
      waves[w].items.push(item);
      resources.forEach((r) => waves[w].resources.add(r));
      waveOf.set(item.id, w);
    }

    // Labels continue after every wave label still in use, so a label never names two different waves.
    const base = await this.highestWaveNumber(tx, inPlan);
    const labelled = waves.map((wave, i) => ({ label: `wave-${base + i + 1}`, items: wave.items }));
    for (const { label, items } of labelled) {
      for (const item of items) {
        if (item.wave === label) continue;
        await tx.m.update(SprintItem, { id: item.id }, { wave: label, updated_at: tx.now });
        tx.changed('waves_assigned', { ...item, wave: label, updated_at: tx.now });
      }
    }
    for (const id of blocked) {
      const item = byId.get(id)!;
      if (item.wave === null) continue;
      await tx.m.update(SprintItem, { id }, { wave: null, updated_at: tx.now });
      tx.changed('waves_assigned', { ...item, wave: null, updated_at: tx.now });
    }
    return {
      version: version ?? null,
      wave_count: labelled.length,
      assigned: ordered.length,
      waves: labelled.map(({ label, items }) => ({ wave: label, items: items.map((i) => ({ id: i.id, slug: i.slug, title: i.title })) })),
      blocked_count: blocked.size,
      undeclared_count: undeclared,
    };
  }

  private async highestWaveNumber(tx: SprintTx, relabelled: Set<string>): Promise<number> {
    const items = await tx.m.find(SprintItem, { select: { id: true, wave: true }, where: { project_id: tx.projectId, wave: Not(IsNull()) } });
    const summaries = await tx.m.find(SprintWaveSummary, { select: { wave: true }, where: { project_id: tx.projectId } });
    let highest = 0;
    for (const label of [...items.filter((i) => !relabelled.has(i.id)).map((i) => i.wave), ...summaries.map((s) => s.wave)]) {
      const match = label ? WAVE_LABEL.exec(label) : null;
      if (match) highest = Math.max(highest, Number(match[1]));
    }
    return highest;
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
