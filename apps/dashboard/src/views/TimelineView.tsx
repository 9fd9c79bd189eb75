import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ProjectView, TimelineEntryView, TimelinePage } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

const PAGE = 50;

/** New AI-log events were stored, or a sprint item changed (a milestone may have been added or completed): the newest page is read again. */
const written = (frame: LiveFrame) => frame.event === 'ai_log_written' || frame.event === 'sprint_item_changed';

/** The project's AI-log (sessions starting, tool calls, handoff corrections) with its milestones as markers, newest first, live; older pages on demand. */
export function TimelineView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const id = encodeURIComponent(projectId);
  const head = useLive(
    `timeline:${projectId}`,
    () => api<TimelinePage>('GET', `/projects/${id}/timeline?limit=${PAGE}`),
    (page) => page,
    written,
  );
  const [older, setOlder] = useState<{ key: string; events: TimelineEntryView[]; next: string | null }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const mine = older?.key === projectId ? older : undefined;
  const seen = new Set(head.data?.events.map((e) => e.id));
  const events = [...(head.data?.events ?? []), ...(mine?.events.filter((e) => !seen.has(e.id)) ?? [])];
  const next = mine ? mine.next : (head.data?.next_cursor ?? null);
  const loadOlder = async () => {
    if (next === null) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api<TimelinePage>('GET', `/projects/${id}/timeline?limit=${PAGE}&cursor=${encodeURIComponent(next)}`);
      setOlder({ key: projectId, events: [...(mine?.events ?? []), ...page.events], next: page.next_cursor });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="timeline-heading">
      <h1 id="timeline-heading">Timeline{project ? ` of ${project.name}` : ''}</h1>
      {head.error && <p role="alert">Could not load the timeline: {head.error}</p>}
      {!head.data && !head.error && <p>Loading…</p>}
      {head.data && events.length === 0 && <p>Nothing has been recorded in this project yet.</p>}
      {events.length > 0 && (
        <ol class="cards" aria-label="AI-log events, newest first">
          {events.map((e) =>
            e.kind === 'milestone' ? (
              <li key={e.id} class="milestone-marker" aria-label={`Milestone ${e.data.marker}: ${e.data.title}`}>
                <small>
                  <time dateTime={e.occurred_at}>{new Date(e.occurred_at).toLocaleString()}</time> · milestone {e.data.marker}
                </small>
                <p class="body">
                  <span aria-hidden="true">◆ </span>
                  <strong>{e.data.title}</strong>
                </p>
              </li>
            ) : (
              <li key={e.id} class={e.outcome === 'error' ? 'outcome-error' : undefined}>
                <small>
                  <time dateTime={e.occurred_at}>{new Date(e.occurred_at).toLocaleString()}</time> · {e.kind.replace(/_/g, ' ')}
                  {e.tool && (
                    <>
                      {' '}
                      · <span class="mono">{e.tool}</span>
                    </>
                  )}
                  {e.outcome && ` · ${e.outcome}${e.error_code ? ` (${e.error_code})` : ''}`}
                  {e.duration_ms !== null && ` · ${Math.round(e.duration_ms)} ms`}
                </small>
                <p class="body">{e.summary}</p>
                {e.session_id && <small class="mono">session {e.session_id}</small>}
              </li>
            ),
          )}
        </ol>
      )}
      {error && <p role="alert">{error}</p>}
      {head.data && next !== null && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void loadOlder()}>
          Older events
        </button>
      )}
    </section>
  );
}
