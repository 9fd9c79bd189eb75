import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { SessionView, SprintGates, SprintItemStatus, SprintItemView, WaitingGate } from '../api/types';
import { live, type LiveFrame } from '../live/events';

export type Grouping = 'status' | 'group' | 'wave';

/** The columns of the board by status, in the order work moves; the first four always show, the others when they hold an item. */
export const STATUS_COLUMNS: { status: SprintItemStatus; label: string; always: boolean }[] = [
  { status: 'todo', label: 'To do', always: true },
  { status: 'pending', label: 'Pending', always: true },
  { status: 'in_progress', label: 'In progress', always: true },
  { status: 'provisional_complete', label: 'Provisionally complete', always: false },
  { status: 'indeterminate', label: 'Indeterminate', always: false },
  { status: 'done', label: 'Done', always: true },
  { status: 'failed', label: 'Failed', always: false },
  { status: 'skipped', label: 'Skipped', always: false },
  { status: 'pushed', label: 'Pushed', always: false },
];

export const statusLabel = (status: SprintItemStatus) => STATUS_COLUMNS.find((c) => c.status === status)?.label ?? status;

const PRIORITY_RANK: Record<SprintItemView['priority'], number> = { urgent: 0, high: 1, normal: 2, low: 3 };

/** Serving order, as a next-claim picks: priority, then the oldest first. */
export function byServingOrder(a: SprintItemView, b: SprintItemView): number {
  return PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.added_at.localeCompare(b.added_at) || a.id.localeCompare(b.id);
}

export interface Column {
  key: string;
  label: string;
  items: SprintItemView[];
}

/** The board's columns: by status, or by group or wave (items without one last). */
export function columnsOf(items: SprintItemView[], grouping: Grouping): Column[] {
  const buckets = new Map<string, SprintItemView[]>();
  const keyOf = (i: SprintItemView) => (grouping === 'status' ? i.status : ((grouping === 'group' ? i.item_group : i.wave) ?? ''));
  for (const item of items) {
    const key = keyOf(item);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(item);
    else buckets.set(key, [item]);
  }
  for (const bucket of buckets.values()) bucket.sort(byServingOrder);
  if (grouping === 'status') {
    return STATUS_COLUMNS.filter((c) => c.always || buckets.has(c.status)).map((c) => ({ key: c.status, label: c.label, items: buckets.get(c.status) ?? [] }));
  }
  const none = grouping === 'group' ? 'No group' : 'No wave';
  return [...buckets.keys()]
    .sort((a, b) => (a === '' ? 1 : b === '' ? -1 : a.localeCompare(b, undefined, { numeric: true })))
    .map((key) => ({ key: key || '\u0000none', label: key || none, items: buckets.get(key)! }));
}

/** sprint_item_changed of this project changes, adds or removes the item in place. */
export function applyItems(projectId: string) {
  return (items: SprintItemView[], frame: LiveFrame): SprintItemView[] => {
    if (frame.event !== 'sprint_item_changed') return items;
    const { project_id, item_id, item } = frame.data as { project_id: string; item_id: string; item: SprintItemView | null };
    if (project_id !== projectId) return items;
    const others = items.filter((i) => i.id !== item_id);
    if (!item) return others;
    return others.length === items.length ? [...items, item] : items.map((i) => (i.id === item_id ? item : i));
  };
}

export const loadItems = (projectId: string) => api<SprintItemView[]>('GET', `/projects/${encodeURIComponent(projectId)}/sprint-items?limit=10000`);

/** What the board shows beside the items: why each waiting item is not claimable, and the names of the live sessions. */
export interface BoardContext {
  gates: Map<string, WaitingGate[]>;
  sessions: Map<string, SessionView>;
}

const AFFECTS_CONTEXT = new Set(['connected', 'sprint_item_changed', 'session_started', 'session_closed']);
/** Changes arriving together (a batch, waves assigned) are read once. */
const SETTLE_MS = 150;

/**
 * The board's context, read again when something that may change it happens: the socket (re)connects,
 * an item changes (a dependency completed, a claim released), a session starts or closes. No polling.
 */
export function useBoardContext(projectId: string): BoardContext {
  const [context, setContext] = useState<BoardContext>({ gates: new Map(), sessions: new Map() });
  useEffect(() => {
    const base = `/projects/${encodeURIComponent(projectId)}`;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const [gates, sessions] = await Promise.all([api<SprintGates>('GET', `${base}/sprint/gates`), api<SessionView[]>('GET', `${base}/sessions`)]);
      if (stopped) return;
      setContext({ gates: new Map(gates.items.map((w) => [w.item_id, w.gates])), sessions: new Map(sessions.map((s) => [s.id, s])) });
    };
    const reload = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load().catch(() => undefined), SETTLE_MS);
    };
    void load().catch(() => undefined);
    const unsubscribe = live.subscribe((frame) => {
      const about = (frame.data as { project_id?: string } | undefined)?.project_id;
      if (AFFECTS_CONTEXT.has(frame.event) && (about === undefined || about === projectId)) reload();
    });
    return () => {
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
    };
  }, [projectId]);
  return context;
}

/** "3 min", "2 h 5 min", "4 d": how long since `iso`. */
export function since(iso: string, now: number): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
  return `${Math.floor(hours / 24)} d`;
}

/** The current time, moving on every `everyMs` (for "held for ..."; only the page's clock, nothing is fetched). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
