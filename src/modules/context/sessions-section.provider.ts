import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In, MoreThan } from 'typeorm';
import { Clock } from '../../common/clock';
import { ContextSection, ContextSections } from '../../common/extensions/context-sections';
import { FileLock } from '../sessions/file-lock.entity';
import { Session } from '../sessions/session.entity';
import { SESSIONS_SECTION_LIMIT, SESSIONS_SECTION_ORDER } from './context.constants';
import { sessionLines } from './sessions-section.util';

/**
 * The "sessions" section of the context block: who else is working on the
 * project right now, most recently seen first, with the files each one holds.
 */
@Injectable()
export class SessionsSectionProvider implements OnModuleInit {
  constructor(
    private readonly sections: ContextSections,
    private readonly clock: Clock,
  ) {}

  onModuleInit() {
    this.sections.register('sessions', (m, projectId) => this.section(m, projectId));
  }

  async section(m: EntityManager, projectId: string): Promise<ContextSection | null> {
    const sessions = await m.find(Session, {
      where: { project_id: projectId, status: 'active' },
      order: { last_seen: 'DESC', id: 'ASC' },
      take: SESSIONS_SECTION_LIMIT,
    });
    if (sessions.length === 0) return null;
    const locks = await m.find(FileLock, {
      where: { project_id: projectId, session_id: In(sessions.map((s) => s.id)), expires_at: MoreThan(this.clock.now()) },
      order: { file_path: 'ASC' },
    });
    return { key: 'sessions', title: 'Active sessions', order: SESSIONS_SECTION_ORDER, lines: sessionLines(sessions, locks) };
  }
}
