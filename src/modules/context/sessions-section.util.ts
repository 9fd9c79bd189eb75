import { FileLock } from '../sessions/file-lock.entity';
import { Session } from '../sessions/session.entity';

/** Files named per session in the context block; the rest are counted. */
const FILES_PER_SESSION = 5;

/**
 * The lines of the "sessions" section: one per session, in the order given
 * (most recently seen first), with its kind, person, id, last_seen and the
 * files it holds among `locks`, in the order given (by path).
 */
export function sessionLines(
  sessions: readonly Pick<Session, 'id' | 'name' | 'kind' | 'human_id' | 'last_seen'>[],
  locks: readonly Pick<FileLock, 'session_id' | 'file_path'>[],
): string[] {
  const held = new Map<string, string[]>();
  for (const lock of locks) held.set(lock.session_id, [...(held.get(lock.session_id) ?? []), lock.file_path]);
  return sessions.map((s) => `${s.name} (${s.kind}, ${s.human_id}, session ${s.id}), last seen ${s.last_seen.toISOString()}${holding(held.get(s.id) ?? [])}`);
}

function holding(files: string[]): string {
  if (files.length === 0) return '';
  const more = files.length > FILES_PER_SESSION ? ` and ${files.length - FILES_PER_SESSION} more` : '';
  return `; holds ${files.slice(0, FILES_PER_SESSION).join(', ')}${more}`;
}
