import type { ComponentChildren } from 'preact';
import { api } from '../api/client';
import type { DecisionLogEntryView, InsightView, KnowledgeKind, PinnedDecisionView, ProjectNoteView, ProjectView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

interface Knowledge {
  pinned: PinnedDecisionView[];
  log: DecisionLogEntryView[];
  notes: ProjectNoteView[];
  insights: InsightView[];
}

const LIMIT = 100;

async function loadKnowledge(projectId: string): Promise<Knowledge> {
  const base = `/projects/${encodeURIComponent(projectId)}`;
  const [pinned, log, notes, insights] = await Promise.all([
    api<PinnedDecisionView[]>('GET', `${base}/decisions-pinned`),
    api<DecisionLogEntryView[]>('GET', `${base}/decisions?limit=${LIMIT}`),
    api<ProjectNoteView[]>('GET', `${base}/notes?limit=${LIMIT}`),
    api<InsightView[]>('GET', `${base}/insights?limit=${LIMIT}`),
  ]);
  return { pinned, log, notes, insights };
}

/** knowledge_changed says only which kind changed: the view loads again (one project, four short lists). */
const changedHere = (projectId: string) => (frame: LiveFrame) =>
  frame.event === 'knowledge_changed' && (frame.data as { project_id?: string; kind?: KnowledgeKind }).project_id === projectId;

const when = (iso: string) => new Date(iso).toLocaleString();

/** What a project knows: its pinned decisions, its decision log, its notes and insights, kept current as assistants and people change them. */
export function KnowledgeView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const knowledge = useLive(
    `knowledge:${projectId}`,
    () => loadKnowledge(projectId),
    (k) => k,
    changedHere(projectId),
  );
  const k = knowledge.data;
  return (
    <section aria-labelledby="knowledge-heading">
      <h1 id="knowledge-heading">Knowledge{project ? ` of ${project.name}` : ''}</h1>
      {knowledge.error && <p role="alert">Could not load the project's knowledge: {knowledge.error}</p>}
      {!k && !knowledge.error && <p>Loading…</p>}
      {k && (
        <>
          <Part id="pinned" title="Pinned decisions" empty="No decision is pinned." items={k.pinned}>
            {(d) => (
              <>
                <h3>{d.title}</h3>
                {d.body && <p class="context">{d.body}</p>}
                <small>
                  pinned {when(d.created_at)}
                  {d.human_id ? ` by ${d.human_id}` : ''}
                </small>
              </>
            )}
          </Part>
          <Part id="log" title="Decision log" empty="No decision has been logged." items={k.log}>
            {(e) => (
              <>
                <h3>{e.title}</h3>
                {e.body && <p class="context">{e.body}</p>}
                <small>
                  {when(e.created_at)}
                  {e.human_id ? ` · ${e.human_id}` : ''}
                  {e.superseded_by_id ? ' · merged into a later entry' : ''}
                </small>
              </>
            )}
          </Part>
          <Part id="notes" title="Notes" empty="No note yet." items={k.notes}>
            {(n) => (
              <>
                <h3>{n.title}</h3>
                {n.body && <p class="context">{n.body}</p>}
                {n.tags.length > 0 && (
                  <ul class="tags" aria-label="Tags">
                    {n.tags.map((t) => (
                      <li key={t}>{t}</li>
                    ))}
                  </ul>
                )}
                <small>updated {when(n.updated_at)}</small>
              </>
            )}
          </Part>
          <Part id="insights" title="Insights" empty="No insight yet." items={k.insights}>
            {(i) => (
              <>
                <h3>{i.title}</h3>
                {i.body && <p class="context">{i.body}</p>}
                <small>
                  horizon: {i.horizon} · {when(i.created_at)}
                </small>
              </>
            )}
          </Part>
        </>
      )}
    </section>
  );
}

function Part<T extends { id: string }>({ id, title, empty, items, children }: { id: string; title: string; empty: string; items: T[]; children: (item: T) => ComponentChildren }) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>
        {title} <small>({items.length})</small>
      </h2>
      {items.length === 0 ? (
        <p>{empty}</p>
      ) : (
        <ul class="cards" aria-labelledby={`${id}-heading`}>
          {items.map((item) => (
            <li key={item.id}>{children(item)}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
