import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager, In, MoreThan } from 'typeorm';
import { Clock } from '../../common/clock';
import { ContextSection, ContextSections } from '../../common/extensions/context-sections';
import { FileLock } from '../sessions/file-lock.entity';
import { Session } from '../sessions/session.entity';
import { SESSIONS_SECTION_LIMIT, SESSIONS_SECTION_ORDER } from './context.constants';

const FILES_PER_SESSION = 5;

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
    const held = new Map<string, string[]>();
    for (const lock of locks) held.set(lock.session_id, [...(held.get(lock.session_id) ?? []), lock.file_path]);
    return {
      key: 'sessions',
      title: 'Active sessions',
      order: SESSIONS_SECTION_ORDER,
      lines: sessions.map((s) => {
        const files = held.get(s.id) ?? [];
        const holds =
          files.length === 0
            ? ''
            : `; holds ${files.slice(0, FILES_PER_SESSION).join(', ')}${files.length > FILES_PER_SESSION ? ` and ${files.length - FILES_PER_SESSION} more` : ''}`;
        return `${s.name} (${s.kind}, ${s.human_id}, session ${s.id}), last seen ${s.last_seen.toISOString()}${holds}`;
      }),
    };
  }
}
