import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { HitlUrgency, HitlView, ProjectView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

/** Most urgent first; within one urgency, the question that has waited longest first. */
const RANK: Record<HitlUrgency, number> = { blocking: 0, high: 1, normal: 2 };

export function byUrgency(a: HitlView, b: HitlView): number {
  return RANK[a.urgency] - RANK[b.urgency] || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id);
}

/** hitl_created adds a pending question of this project; hitl_answered and hitl_dismissed take one away. */
function applyHitl(projectId: string) {
  return (pending: HitlView[], frame: LiveFrame): HitlView[] => {
    const request = (frame.data as { request?: HitlView }).request;
    if (!request || request.project_id !== projectId) return pending;
    const others = pending.filter((r) => r.id !== request.id);
    if (frame.event === 'hitl_created' && request.status === 'pending') return [...others, request].sort(byUrgency);
    if (frame.event === 'hitl_answered' || frame.event === 'hitl_dismissed') return others;
    return pending;
  };
}

/** The questions of one project that wait for a person, most urgent first, each answered or dismissed here. */
export function InboxView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const pending = useLive(
    `hitl:${projectId}`,
    async () => (await api<HitlView[]>('GET', `/projects/${encodeURIComponent(projectId)}/hitl?status=pending&limit=200`)).sort(byUrgency),
    applyHitl(projectId),
  );
  const done = (id: string) => pending.set((list) => list.filter((r) => r.id !== id));
  return (
    <section aria-labelledby="inbox-heading">
      <h1 id="inbox-heading">Questions{project ? ` for ${project.name}` : ''}</h1>
      {pending.error && <p role="alert">Could not load the questions: {pending.error}</p>}
      {!pending.data && !pending.error && <p>Loading…</p>}
      {pending.data?.length === 0 && <p>No question is waiting for an answer.</p>}
      {pending.data && pending.data.length > 0 && (
        <ol class="cards" aria-label="Questions waiting for an answer">
          {pending.data.map((r) => (
            <Question key={r.id} request={r} onDone={done} />
          ))}
        </ol>
      )}
    </section>
  );
}

function Question({ request, onDone }: { request: HitlView; onDone: (id: string) => void }) {
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const send = async (body: { answer: string } | { action: 'dismiss' }) => {
    setBusy(true);
    setError(undefined);
    try {
      await api<HitlView>('PATCH', `/hitl/${encodeURIComponent(request.id)}`, body);
      onDone(request.id);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  const field = `answer-${request.id}`;
  return (
    <li class={`question urgency-${request.urgency}`}>
      <article aria-labelledby={`q-${request.id}`}>
        <p class="badge">{request.urgency}</p>
        <h2 id={`q-${request.id}`}>{request.question}</h2>
        {request.context && <p class="context">{request.context}</p>}
        <p>
          <small>
            asked {new Date(request.created_at).toLocaleString()} · for {request.assigned_to}
          </small>
        </p>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (answer.trim()) void send({ answer: answer.trim() });
          }}
        >
          <label for={field}>Your answer</label>
          <textarea id={field} rows={3} required value={answer} onInput={(e) => setAnswer(e.currentTarget.value)} disabled={busy} />
          {error && <p role="alert">{error}</p>}
          <div class="actions">
            <button type="submit" disabled={busy}>
              Send answer
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => void send({ action: 'dismiss' })}>
              Dismiss
            </button>
          </div>
        </form>
      </article>
    </li>
  );
}
