import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ProjectView, SprintItemView, WaitingGate } from '../api/types';
import { useLive } from '../live/use-live';
import { applyItems, type BoardContext, type Column, columnsOf, type Grouping, loadItems, since, statusLabel, useBoardContext, useNow } from './board-data';

/** Cards a column shows at first; "Show more" adds as many again (1,000 items paint at once this way). */
const COLUMN_PAGE = 50;
/** The performance mark set once the board's first items are on screen (the dashboard benchmark and its test read it). */
export const BOARD_RENDERED_MARK = 'baton:board-rendered';

const GROUPINGS: { value: Grouping; label: string }[] = [
  { value: 'status', label: 'Status' },
  { value: 'group', label: 'Group' },
  { value: 'wave', label: 'Wave' },
];

/** A project's sprint board: items by status, group or wave, who holds each claim and for how long, and why a waiting item is not claimable. */
export function BoardView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const items = useLive(`board:${projectId}`, () => loadItems(projectId), applyItems(projectId));
  const context = useBoardContext(projectId);
  const [grouping, setGrouping] = useState<Grouping>('status');
  const [selected, setSelected] = useState<string>();
  const now = useNow(30_000);
  const columns = useMemo(() => (items.data ? columnsOf(items.data, grouping) : []), [items.data, grouping]);
  const byId = useMemo(() => new Map(items.data?.map((i) => [i.id, i])), [items.data]);
  const marked = useRef(false);
  useEffect(() => {
    if (!items.data || marked.current) return;
    marked.current = true;
    // After the frame that shows the items has been painted.
    requestAnimationFrame(() => setTimeout(() => performance.mark(BOARD_RENDERED_MARK)));
  }, [items.data]);
  const card = { byId, context, now, open: setSelected };
  return (
    <section aria-labelledby="board-heading">
      <h1 id="board-heading">Sprint board{project ? ` of ${project.name}` : ''}</h1>
      {items.error && <p role="alert">Could not load the sprint items: {items.error}</p>}
      {!items.data && !items.error && <p>Loading…</p>}
      {items.data && (
        <>
          <fieldset class="toggle">
            <legend>Columns by</legend>
            {GROUPINGS.map((g) => (
              <label key={g.value}>
                <input type="radio" name="grouping" value={g.value} checked={grouping === g.value} onChange={() => setGrouping(g.value)} /> {g.label}
              </label>
            ))}
          </fieldset>
          <p>
            <small>
              {items.data.length} item{items.data.length === 1 ? '' : 's'}
            </small>
          </p>
          <div class="board">
            {columns.map((c) => (
              <BoardColumn key={`${grouping}:${c.key}`} column={c} grouping={grouping} card={card} />
            ))}
          </div>
        </>
      )}
      {selected && byId.get(selected) && <ItemDetails item={byId.get(selected)!} card={card} onClose={() => setSelected(undefined)} />}
    </section>
  );
}

interface CardProps {
  byId: Map<string, SprintItemView>;
  context: BoardContext;
  now: number;
  open: (id: string) => void;
}

function BoardColumn({ column, grouping, card }: { column: Column; grouping: Grouping; card: CardProps }) {
  const [shown, setShown] = useState(COLUMN_PAGE);
  const id = `column-${grouping}-${column.key.replace(/[^\w-]/g, '_')}`;
  const hidden = column.items.length - shown;
  return (
    <section class="column" aria-labelledby={id}>
      <h2 id={id}>
        {column.label} <span class="count">({column.items.length})</span>
      </h2>
      <ol class="items">
        {column.items.slice(0, shown).map((item) => (
          <ItemCard key={item.id} item={item} grouping={grouping} card={card} />
        ))}
      </ol>
      {hidden > 0 && (
        <button type="button" class="secondary" onClick={() => setShown(shown + COLUMN_PAGE)}>
          Show {Math.min(hidden, COLUMN_PAGE)} more of {hidden}
        </button>
      )}
    </section>
  );
}

const holderName = (item: SprintItemView, context: BoardContext) =>
  item.claimed_by_session_id ? (context.sessions.get(item.claimed_by_session_id)?.name ?? `session ${item.claimed_by_session_id.slice(0, 8)}`) : (item.claimant ?? 'nobody');

function ItemCard({ item, grouping, card }: { item: SprintItemView; grouping: Grouping; card: CardProps }) {
  const gates = card.context.gates.get(item.id);
  const dependency = item.depends_on ? card.byId.get(item.depends_on) : undefined;
  return (
    <li class={`item priority-${item.priority}`}>
      <button type="button" class="item-title" onClick={() => card.open(item.id)}>
        {item.title}
      </button>
      <small>
        {item.slug} · {item.priority}
        {grouping !== 'status' ? ` · ${statusLabel(item.status)}` : ''}
      </small>
      {item.status === 'in_progress' && item.claimed_at && (
        <small class="claim">
          held by {holderName(item, card.context)} for {since(item.claimed_at, card.now)}
        </small>
      )}
      {item.depends_on && <small>depends on {dependency ? `${dependency.slug} (${statusLabel(dependency.status)})` : 'a removed item'}</small>}
      {gates && <small class="gate">not claimable: {gates.map((g) => gateLabel(g)).join(', ')}</small>}
    </li>
  );
}

const GATE_LABELS: Record<string, string> = {
  blocked: 'blocked',
  deferred: 'deferred',
  superseded: 'superseded',
  depends_on: 'waits on its dependency',
  track: 'track not active',
  prospect: 'not prospected',
  file_lock: 'file locked',
  milestone: 'a milestone',
  human: 'human work',
};

const gateLabel = (gate: WaitingGate) => GATE_LABELS[gate.gate] ?? gate.gate;

function ItemDetails({ item, card, onClose }: { item: SprintItemView; card: CardProps; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);
  const gates = card.context.gates.get(item.id);
  const dependency = item.depends_on ? card.byId.get(item.depends_on) : undefined;
  const fields: [string, string | null][] = [
    ['Status', statusLabel(item.status)],
    ['Priority', item.priority],
    ['Version', item.version],
    ['Group', item.item_group],
    ['Wave', item.wave],
    ['Track', item.track],
    ['Kind', item.milestone_type],
    ['Owner', item.owner],
    ['Held by', item.status === 'in_progress' ? `${holderName(item, card.context)}${item.claimed_at ? ` for ${since(item.claimed_at, card.now)}` : ''}` : null],
    ['Blocker', item.blocker_kind],
    ['Deferred until', item.deferred_until && new Date(item.deferred_until).toLocaleString()],
    ['Files', item.touches_files.join(', ') || null],
    ['Resources', item.touches_resources.join(', ') || null],
    ['Added', new Date(item.added_at).toLocaleString()],
    ['Completed', item.completed_at && new Date(item.completed_at).toLocaleString()],
  ];
  return (
    <dialog ref={dialog} class="details" aria-labelledby="item-details-heading" onClose={onClose}>
      <h2 id="item-details-heading">{item.title}</h2>
      <p>
        <small>
          {item.slug} · {item.nickname}
        </small>
      </p>
      <dl>
        {fields
          .filter(([, value]) => value)
          .map(([name, value]) => (
            <div key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        {item.depends_on && (
          <div>
            <dt>Depends on</dt>
            <dd>
              {dependency ? (
                <button type="button" class="link" onClick={() => card.open(dependency.id)}>
                  {dependency.title} ({statusLabel(dependency.status)})
                </button>
              ) : (
                'an item that no longer exists'
              )}
            </dd>
          </div>
        )}
      </dl>
      {item.notes && <p class="context">{item.notes}</p>}
      {gates && (
        <>
          <h3>Why it is not claimable</h3>
          <ul>
            {gates.map((g, i) => (
              <li key={i}>{g.detail}</li>
            ))}
          </ul>
        </>
      )}
      <form method="dialog">
        <button type="submit">Close</button>
      </form>
    </dialog>
  );
}
