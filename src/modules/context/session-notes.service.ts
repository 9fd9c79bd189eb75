import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, MoreThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { Session } from '../sessions/session.entity';
import { SessionError } from '../sessions/sessions.errors';
import { SessionNote } from './session-note.entity';
import { SessionNoteView, toSessionNoteView } from './session-note.view';

export const SESSION_NOTES_DEFAULT_LIMIT = 50;

export interface ProjectNoteLine {
  session_name: string;
  note: SessionNoteView;
}

/** A session's scratch pad: short notes it keeps for itself and for whoever takes over. */
@Injectable()
export class SessionNotesService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  /** Adds a note to an active session's pad. A closed session's pad is read-only. */
  async add(sessionId: string, body: string): Promise<SessionNoteView> {
    return this.db.transaction(async (m) => {
      const session = await m.findOneBy(Session, { id: sessionId });
      if (!session) throw SessionError.notFound(sessionId);
      if (session.status !== 'active') throw SessionError.closed(sessionId);
      const last = await m.findOne(SessionNote, { where: { session_id: sessionId }, order: { created_at: 'DESC' } });
      // Strictly increasing per session, so "newest first" is one order even for notes of the same millisecond.
      const now = this.clock.now();
      const createdAt = last && last.created_at.getTime() >= now.getTime() ? new Date(last.created_at.getTime() + 1) : now;
      const note: SessionNote = { id: randomUUID(), project_id: session.project_id, session_id: sessionId, body, created_at: createdAt };
      await m.insert(SessionNote, note);
      // Writing a note is activity: it keeps the session from being swept.
      await m.update(Session, { id: sessionId }, { last_seen: now });
      return toSessionNoteView(note);
    });
  }

  /** The session's notes, newest first. */
  async list(sessionId: string, limit = SESSION_NOTES_DEFAULT_LIMIT, offset = 0): Promise<SessionNoteView[]> {
    const notes = await this.db.transaction(async (m) => {
      const session = await m.findOneBy(Session, { id: sessionId });
      if (!session) throw SessionError.notFound(sessionId);
      return m.find(SessionNote, { where: { session_id: sessionId }, order: { created_at: 'DESC', id: 'DESC' }, skip: offset, take: limit });
    });
    return notes.map(toSessionNoteView);
  }

  /** Notes of a project's sessions written after `since` (all when absent), newest first, inside the caller's transaction. */
  async ofProject(m: EntityManager, projectId: string, options: { since?: Date; sessionId?: string; limit: number }): Promise<ProjectNoteLine[]> {
    const where = {
      project_id: projectId,
      ...(options.sessionId ? { session_id: options.sessionId } : {}),
      ...(options.since ? { created_at: MoreThan(options.since) } : {}),
    };
    const notes = await m.find(SessionNote, { where, order: { created_at: 'DESC', id: 'DESC' }, take: options.limit });
    const ids = [...new Set(notes.map((n) => n.session_id))];
    const sessions = ids.length === 0 ? [] : await m.findBy(Session, { id: In(ids) });
    const names = new Map(sessions.map((s) => [s.id, s.name]));
    return notes.map((n) => ({ session_name: names.get(n.session_id) ?? n.session_id, note: toSessionNoteView(n) }));
  }
}
