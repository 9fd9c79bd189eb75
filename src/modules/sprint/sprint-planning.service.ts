import { Injectable } from '@nestjs/common';
import { SprintDb } from './sprint-db.service';
import { SprintItem } from './sprint-item.entity';
import { SprintItemView, toSprintItemView } from './sprint-item.view';
import { SprintTrack } from './sprint-track.entity';
import { requireItem } from './sprint-store.util';
import { TrackState } from './sprint.constants';
import { SprintError } from './sprint.errors';

export interface TrackView {
  name: string;
  state: TrackState;
  item_count: number;
  updated_at: string | null;
}

/** Planner work: prospecting items (the prospect gate) and deferring or skipping whole tracks. */
@Injectable()
export class SprintPlanning {
  constructor(private readonly sprint: SprintDb) {}

  /**
   * Attaches concrete locations (`path[:line][#symbol]`) to an item that
   * declares touches_resources: the item is then prospected and passes the
   * prospect gate. Attaching again replaces the list.
   */
  async prospect(projectId: string, ref: string, locations: string[]): Promise<SprintItemView> {
    return this.sprint.run(projectId, async (tx) => {
      const item = await requireItem(tx.m, projectId, ref);
      const clean = [...new Set(locations.map((l) => l.trim()).filter(Boolean))];
      const next: SprintItem = { ...item, locations: JSON.stringify(clean), prospected_at: tx.now, updated_at: tx.now };
      const result = await tx.m.update(SprintItem, { id: item.id, status: item.status }, { locations: next.locations, prospected_at: tx.now, updated_at: tx.now });
      if (!result.affected) throw SprintError.statusRace(item.slug);
      tx.changed('updated', next);
      return toSprintItemView(next);
    });
  }

  /** Every track named by an item or given a state, with its state (active unless set). */
  async tracks(projectId: string): Promise<TrackView[]> {
    return this.sprint.run(projectId, async (tx) => {
      const counts: { track: string; n: string | number }[] = await tx.m
        .createQueryBuilder(SprintItem, 'i')
        .select('i.track', 'track')
        .addSelect('COUNT(*)', 'n')
        .where('i.project_id = :projectId AND i.track IS NOT NULL', { projectId })
        .groupBy('i.track')
        .getRawMany();
      const states = await tx.m.findBy(SprintTrack, { project_id: projectId });
      const names = new Set([...counts.map((c) => c.track), ...states.map((s) => s.name)]);
      return [...names].sort().map((name) => {
        const state = states.find((s) => s.name === name);
        return {
          name,
          state: state?.state ?? 'active',
          item_count: Number(counts.find((c) => c.track === name)?.n ?? 0),
          updated_at: state ? state.updated_at.toISOString() : null,
        };
      });
    });
  }

  /** Sets a track's state: deferred or skipped tracks are left out of claims until set active again. */
  async setTrack(projectId: string, name: string, state: TrackState): Promise<TrackView> {
    return this.sprint.run(projectId, async (tx) => {
      await tx.m.upsert(SprintTrack, { project_id: projectId, name, state, updated_at: tx.now }, ['project_id', 'name']);
      const count = await tx.m.countBy(SprintItem, { project_id: projectId, track: name });
      return { name, state, item_count: count, updated_at: tx.now.toISOString() };
    });
  }
}
