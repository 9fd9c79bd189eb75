import { Injectable, OnModuleInit } from '@nestjs/common';
import { In } from 'typeorm';
import { ContextSections } from '../../common/extensions/context-sections';
import { oneLine } from '../tasks/tasks-context.section';
import { A2A_CONTEXT_LIMIT, A2A_OPEN_STATES } from './a2a.constants';
import { A2aTask } from './a2a-task.entity';

/** Open tasks other agents handed to the project, oldest first, so a session sees the work waiting for it. */
@Injectable()
export class A2aContextSection implements OnModuleInit {
  constructor(private readonly sections: ContextSections) {}

  onModuleInit() {
    this.sections.register('a2a_tasks', async (m, projectId) => {
      const open = await m.find(A2aTask, {
        where: { project_id: projectId, state: In([...A2A_OPEN_STATES]) },
        order: { created_at: 'ASC', id: 'ASC' },
        take: A2A_CONTEXT_LIMIT + 1,
      });
      if (open.length === 0) return null;
      const lines = open.slice(0, A2A_CONTEXT_LIMIT).map((t) => `- [${t.state}] ${oneLine(t.title, 200)}${t.sender ? ` (from ${oneLine(t.sender, 80)})` : ''} — task ${t.id}`);
      if (open.length > A2A_CONTEXT_LIMIT) lines.push('- more: list_a2a_tasks');
      return { key: 'a2a_tasks', title: 'Tasks from other agents (update_a2a_task)', order: 27, lines };
    });
  }
}
