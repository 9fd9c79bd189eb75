import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import type { ForcedRelease, LockView, ProjectView, SessionView } from '../api/types';
import type { LiveFrame } from '../live/events';
import { useLive } from '../live/use-live';

/** An active session not heard from for this long is shown as idle (it still holds its locks until swept or closed). */
export const IDLE_AFTER_MS = 5 * 60_000;

interface Board {
  sessions: SessionView[];
  locks: LockView[];
}

/** Active sessions, most recently seen first, then the closed ones, most recently closed first. */
function ordered(sessions: SessionView[]): SessionView[] {
  const active = sessions.filter((s) => s.status === 'active').sort((a, b) => b.last_seen.localeCompare(a.last_seen));
  const closed = sessions.filter((s) => s.status !== 'active').sort((a, b) => (b.closed_at ?? '').localeCompare(a.closed_at ?? ''));
  return [...active, ...closed];
}

/** Sessions start, beat, close; locks are claimed and released: each changes the board in place. */
function applyBoard(projectId: string) {
  return (board: Board, frame: LiveFrame): Board => {
    const data = frame.data;
    const session = data.session as SessionView | undefined;
    switch (frame.event) {
      case 'session_started':
      case 'session_closed':
        if (!session || session.project_id !== projectId) return board;
        return {
          sessions: ordered([...board.sessions.filter((s) => s.id !== session.id), session]),
          // A closed session's locks are released with it.
          locks: frame.event === 'session_closed' ? board.locks.filter((l) => l.session_id !== session.id) : board.locks,
        };
      case 'session_seen':
        if (!board.sessions.some((s) => s.id === data.session_id)) return board;
        return {
          sessions: ordered(board.sessions.map((s) => (s.id === data.session_id ? { ...s, last_seen: data.last_seen as string } : s))),
          locks: board.locks.map((l) => (l.session_id === data.session_id ? { ...l, session_last_seen: data.last_seen as string } : l)),
        };
      case 'file_lock_claimed': {
        const lock = data.lock as LockView;
        if (data.project_id !== projectId) return board;
        const locks = [...board.locks.filter((l) => l.file_path !== lock.file_path), lock].sort((a, b) => a.file_path.localeCompare(b.file_path));
        return { ...board, locks };
      }
      case 'file_lock_released':
        if (data.project_id !== projectId) return board;
        return { ...board, locks: board.locks.filter((l) => !(l.file_path === data.file_path && l.session_id === data.session_id)) };
      default:
        return board;
    }
  };
}

function stateOf(session: SessionView, now: number): 'active' | 'idle' | 'closed' {
  if (session.status !== 'active') return 'closed';
  return now - Date.parse(session.last_seen) > IDLE_AFTER_MS ? 'idle' : 'active';
}

/** The project's sessions (active, idle, closed) with their heartbeats, and the file locks they hold, each releasable by force. */
export function SessionsView({ projectId, project }: { projectId: string; project?: ProjectView }) {
  const id = encodeURIComponent(projectId);
  const board = useLive<Board>(
    `sessions:${projectId}`,
    async () => {
      const [sessions, locks] = await Promise.all([
        api<SessionView[]>('GET', `/projects/${id}/sessions?include_closed=true`),
        api<LockView[]>('GET', `/projects/${id}/file-locks`),
      ]);
      return { sessions: ordered(sessions), locks };
    },
    applyBoard(projectId),
  );
  // Idle is a matter of time passing: the clock re-renders every 30 s (no request is made).
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  const locks = board.data?.locks.filter((l) => Date.parse(l.expires_at) > now) ?? [];
  return (
    <section aria-labelledby="sessions-heading">
      <h1 id="sessions-heading">Sessions{project ? ` of ${project.name}` : ''}</h1>
      {board.error && <p role="alert">Could not load the sessions: {board.error}</p>}
      {!board.data && !board.error && <p>Loading…</p>}
      {board.data && (
        <>
          <h2>File locks</h2>
          {locks.length === 0 ? (
            <p>No file is locked.</p>
          ) : (
            <ul class="cards" aria-label="File locks">
              {locks.map((lock) => (
                <Lock
                  key={lock.file_path}
                  projectId={projectId}
                  lock={lock}
                  onReleased={(path) => board.set((b) => ({ ...b, locks: b.locks.filter((l) => l.file_path !== path) }))}
                />
              ))}
            </ul>
          )}
          <h2>Sessions</h2>
          {board.data.sessions.length === 0 ? (
            <p>No session has started in this project.</p>
          ) : (
            <ul class="cards" aria-label="Sessions">
              {board.data.sessions.map((s) => {
                const state = stateOf(s, now);
                const held = locks.filter((l) => l.session_id === s.id).length;
                return (
                  <li key={s.id}>
                    <p class={`state state-${state}`}>{state}</p>
                    <h3 class="mono">{s.name}</h3>
                    <small>
                      {s.kind} · {s.human_id} · last seen <time dateTime={s.last_seen}>{new Date(s.last_seen).toLocaleString()}</time>
                      {s.closed_at && (
                        <>
                          {' '}
                          · closed <time dateTime={s.closed_at}>{new Date(s.closed_at).toLocaleString()}</time>
                          {s.close_reason && ` (${s.close_reason.replace(/_/g, ' ')})`}
                        </>
                      )}
                      {held > 0 && ` · holds ${held} file lock${held === 1 ? '' : 's'}`}
                    </small>
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Lock({ projectId, lock, onReleased }: { projectId: string; lock: LockView; onReleased: (path: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const release = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await api<ForcedRelease>('POST', `/projects/${encodeURIComponent(projectId)}/file-locks/release`, { file_path: lock.file_path });
      onReleased(lock.file_path);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <li>
      <h3 class="mono">{lock.file_path}</h3>
      <small>
        held by {lock.session_name} since <time dateTime={lock.claimed_at}>{new Date(lock.claimed_at).toLocaleString()}</time>, until{' '}
        <time dateTime={lock.expires_at}>{new Date(lock.expires_at).toLocaleString()}</time>
      </small>
      {error && <p role="alert">{error}</p>}
      <div class="actions">
        <button type="button" class="secondary" disabled={busy} onClick={() => void release()} aria-label={`Force release ${lock.file_path}`}>
          Force release
        </button>
      </div>
    </li>
  );
}
