import { useState } from 'preact/hooks';
import { api } from '../api/client';
import type { MessagePage, MessageView, ProjectView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

const PAGE = 50;

/** A new message of this project goes on top (once: a reload may already have brought it). */
function applyMessages(projectId: string) {
  return (page: MessagePage, frame: LiveFrame): MessagePage => {
    const message = (frame.data as { message?: MessageView }).message;
    if (frame.event !== 'message_sent' || !message || message.project_id !== projectId || page.messages.some((m) => m.id === message.id)) return page;
    return { ...page, messages: [message, ...page.messages].sort((a, b) => b.seq - a.seq) };
  };
}

function recipientOf(m: MessageView): string {
  if (m.recipient_kind === 'project') return 'everyone in the project';
  return m.recipient_kind === 'agent' ? `agent ${m.recipient}` : `session ${m.recipient}`;
}

/** What the project's sessions and agents said to each other, newest first, live; older pages on demand. Reading here moves no agent's cursor. */
export function MessagesView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const id = encodeURIComponent(projectId);
  const head = useLive(`messages:${projectId}`, () => api<MessagePage>('GET', `/projects/${id}/messages?limit=${PAGE}`), applyMessages(projectId));
  const [older, setOlder] = useState<{ key: string; messages: MessageView[]; next: number | null }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const mine = older?.key === projectId ? older : undefined;
  const seen = new Set(head.data?.messages.map((m) => m.id));
  const messages = [...(head.data?.messages ?? []), ...(mine?.messages.filter((m) => !seen.has(m.id)) ?? [])];
  const next = mine ? mine.next : (head.data?.next_before_seq ?? null);
  const loadOlder = async () => {
    if (next === null) return;
    setBusy(true);
    setError(undefined);
    try {
      const page = await api<MessagePage>('GET', `/projects/${id}/messages?limit=${PAGE}&before_seq=${next}`);
      setOlder({ key: projectId, messages: [...(mine?.messages ?? []), ...page.messages], next: page.next_before_seq });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="messages-heading">
      <h1 id="messages-heading">Messages{project ? ` in ${project.name}` : ''}</h1>
      {head.error && <p role="alert">Could not load the messages: {head.error}</p>}
      {!head.data && !head.error && <p>Loading…</p>}
      {head.data && messages.length === 0 && <p>No message has been sent in this project.</p>}
      {messages.length > 0 && (
        <ol class="cards" aria-label="Messages, newest first">
          {messages.map((m) => (
            <li key={m.id}>
              <article aria-label={`Message ${m.seq} from ${m.from ?? 'unknown'}`}>
                <small>
                  #{m.seq} · from <strong>{m.from ?? 'unknown'}</strong> to {recipientOf(m)} · <time dateTime={m.created_at}>{new Date(m.created_at).toLocaleString()}</time>
                </small>
                <p class="body">{m.body}</p>
              </article>
            </li>
          ))}
        </ol>
      )}
      {error && <p role="alert">{error}</p>}
      {head.data && next !== null && (
        <button type="button" class="secondary" disabled={busy} onClick={() => void loadOlder()}>
          Older messages
        </button>
      )}
    </section>
  );
}
