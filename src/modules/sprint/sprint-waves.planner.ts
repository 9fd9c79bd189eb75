import { SprintItem } from './sprint-item.entity';
import { ACTIVE_STATUSES } from './sprint.constants';
import { SprintError } from './sprint.errors';

/** What the wave plan reads of an item. */
export type WaveItem = Pick<SprintItem, 'id' | 'slug' | 'status' | 'version' | 'blocker_kind' | 'depends_on' | 'failure_mode' | 'touches_resources'>;

export interface WavePlan<T extends WaveItem> {
  /** Ids of the items the plan covers (pending or todo, no blocker, of the version asked): their old wave labels are replaced. */
  planned: Set<string>;
  /** Groups of items that can run in parallel, in the order they run. */
  waves: T[][];
  /** Planned items that wait, somewhere up their chain, on an item that will not finish by itself: they get no wave. */
  blocked: T[];
  /** How many of the scheduled items declare no resources. */
  undeclared: number;
}

const WAVE_LABEL = /^wave-(\d+)$/;

/**
 * Groups the pending and todo items of `version` (all versions when omitted)
 * into waves. An item's wave comes after the waves of what it depends on; two
 * items touching the same resource never share a wave. An item that declares
 * no resources conflicts with nothing declared, so it takes the first wave
 * after its dependencies like any other: isolating it would add a whole wave
 * per such item, and the file lock gate still stops two sessions editing one
 * locked file.
 *
 * `items` is every item of the project, in serving order (priority, age, id):
 * dependencies outside the plan are read from it, and the order decides
 * which of two conflicting items goes first. A dependency cycle reachable from
 * a planned item is refused, naming it; a dependency on an unknown id counts
 * as none.
 */
export function planWaves<T extends WaveItem>(items: readonly T[], version?: string): WavePlan<T> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const planned = items.filter((i) => (i.status === 'pending' || i.status === 'todo') && i.blocker_kind === null && (version === undefined || i.version === version));
  const inPlan = new Set(planned.map((i) => i.id));
  refuseCycles(planned, byId);
  const blocked = planned.filter((i) => isBlocked(i, byId, inPlan));
  const blockedIds = new Set(blocked.map((i) => i.id));
  const depth = depthsIn(planned, byId, inPlan);
  // Already in serving order; a stable sort by depth keeps that order within a depth.
  const ordered = planned.filter((i) => !blockedIds.has(i.id)).sort((a, b) => depth.get(a.id)! - depth.get(b.id)!);
  const { waves, undeclared } = fillWaves(ordered);
  return { planned: inPlan, waves, blocked, undeclared };
}

/** The labels of `waves`, numbered on from `after` (the highest wave number still in use), so a label never names two different waves. */
export function labelWaves<T>(waves: T[][], after: number): { label: string; items: T[] }[] {
  return waves.map((items, i) => ({ label: `wave-${after + i + 1}`, items }));
}

/** The highest N of the `wave-N` labels given; 0 when there is none. Other labels are not numbered waves and do not count. */
export function highestWaveNumber(labels: readonly (string | null)[]): number {
  let highest = 0;
  for (const label of labels) {
    const match = label ? WAVE_LABEL.exec(label) : null;
    if (match) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}

/** A dependency cycle can never drain: refuse it, naming it from the first planned item that reaches it. */
function refuseCycles<T extends WaveItem>(planned: readonly T[], byId: Map<string, T>): void {
  for (const item of planned) {
    const path: T[] = [item];
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
}

/** Somewhere up its chain is an item that will not finish by itself: a manual or superseded blocker, or a failure its `stop` dependent cannot pass. */
function isBlocked<T extends WaveItem>(item: T, byId: Map<string, T>, inPlan: Set<string>): boolean {
  for (let cur = item; cur.depends_on;) {
    const dep = byId.get(cur.depends_on);
    if (!dep) return false;
    if (dep.status === 'failed' && cur.failure_mode === 'stop') return true;
    if (ACTIVE_STATUSES.includes(dep.status) && dep.blocker_kind !== null) return true;
    if (!inPlan.has(dep.id)) return false;
    cur = dep;
  }
  return false;
}

/** How many planned items each planned item waits on, along its dependency chain (cycles are refused before). */
function depthsIn<T extends WaveItem>(planned: readonly T[], byId: Map<string, T>, inPlan: Set<string>): Map<string, number> {
  const depth = new Map<string, number>();
  const depthOf = (item: T): number => {
    const known = depth.get(item.id);
    if (known !== undefined) return known;
    const dep = item.depends_on && inPlan.has(item.depends_on) ? byId.get(item.depends_on)! : null;
    const d = dep ? depthOf(dep) + 1 : 0;
    depth.set(item.id, d);
    return d;
  };
  planned.forEach(depthOf);
  return depth;
}

/** Each item, in turn, into the first wave after its dependency's that touches none of its resources. */
function fillWaves<T extends WaveItem>(ordered: readonly T[]): { waves: T[][]; undeclared: number } {
  const waves: { items: T[]; resources: Set<string> }[] = [];
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
  return { waves: waves.map((w) => w.items), undeclared };
}
