import { EntityManager } from 'typeorm';
import { Session } from '../sessions/session.entity';
import { SessionError } from '../sessions/sessions.errors';
import { TaskError } from './tasks.errors';

/**
 * The session `sessionId` of project `projectId`, read in the caller's
 * transaction: 404 when it does not exist (or belongs to another tenant), 400
 * when it belongs to another project, 409 when `active` is asked and it is closed.
 */
export async function requireSessionOf(m: EntityManager, sessionId: string, projectId: string, options: { active?: boolean } = {}): Promise<Session> {
  const session = await m.findOneBy(Session, { id: sessionId });
  if (!session) throw SessionError.notFound(sessionId);
  if (session.project_id !== projectId) throw TaskError.sessionNotInProject(sessionId, projectId);
  if (options.active && session.status !== 'active') throw SessionError.closed(sessionId);
  return session;
}
