import { api } from '../api/client';
import type { HandoffSummary, ProjectView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

/** A handoff written or taken in this project, or a session closing (a carrier ends with its handoff's life): read the list again. */
function changesHandoffs(projectId: string) {
  return (frame: LiveFrame): boolean => {
    if (frame.event === 'handoff_generated' || frame.event === 'handoff_accepted') return frame.data.project_id === projectId;
    return frame.event === 'session_closed' && (frame.data.session as { project_id?: string; kind?: string } | undefined)?.kind === 'handoff';
  };
}

function carried(h: HandoffSummary): string | null {
  if (!h.carries) return null;
  const { sprint_items, tasks, file_locks } = h.carries;
  const parts = [
    [sprint_items, 'sprint item'],
    [tasks, 'task'],
    [file_locks, 'file lock'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  return parts.length ? `holds ${parts.join(', ')} for whoever takes it` : null;
}

/** The project's handoffs, newest first: waiting, accepted (by which session) or expired, and what a waiting one carries. */
export function HandoffsView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const list = useLive(
    `handoffs:${projectId}`,
    () => api<HandoffSummary[]>('GET', `/projects/${encodeURIComponent(projectId)}/handoffs`),
    (l) => l,
    changesHandoffs(projectId),
  );
  return (
    <section aria-labelledby="handoffs-heading">
      <h1 id="handoffs-heading">Handoffs{project ? ` of ${project.name}` : ''}</h1>
      {list.error && <p role="alert">Could not load the handoffs: {list.error}</p>}
      {!list.data && !list.error && <p>Loading…</p>}
      {list.data?.length === 0 && <p>No handoff has been written in this project.</p>}
      {list.data && list.data.length > 0 && (
        <ol class="cards" aria-label="Handoffs, newest first">
          {list.data.map((h) => (
            <li key={h.id}>
              <article aria-labelledby={`h-${h.id}`}>
                <p class={`state state-${h.status === 'waiting' ? 'active' : h.status}`}>{h.status}</p>
                <h2 id={`h-${h.id}`}>
                  {h.mode} handoff{h.from_session_name ? ` from ${h.from_session_name}` : ''}
                  {h.automatic ? ' (written by Baton when the session closed)' : ''}
                </h2>
                <small>
                  written <time dateTime={h.created_at}>{new Date(h.created_at).toLocaleString()}</time> · {h.bytes} bytes ·{' '}
                  {h.consumed_at ? (
                    <>
                      accepted by {h.consumed_by_session_name ?? h.consumed_by_session_id} <time dateTime={h.consumed_at}>{new Date(h.consumed_at).toLocaleString()}</time>
                    </>
                  ) : (
                    <>
                      {h.status === 'waiting' ? 'may be taken until' : 'expired'} <time dateTime={h.expires_at}>{new Date(h.expires_at).toLocaleString()}</time>
                    </>
                  )}
                </small>
                {carried(h) && <p>{carried(h)}</p>}
                <small class="mono">id {h.id}</small>
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
