import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { recentTasks } from './task-rows';
import { RECENT_TASKS } from './tasks.constants';

/** One line per task, at most this long: a long description must not crowd out the rest of the block. */
const LINE_MAX = 200;

/** The "tasks" section of the context block: the project's latest tasks, newest first. */
@Injectable()
export class TasksContextSection implements OnModuleInit {
  constructor(private readonly sections: ContextSections) {}

  onModuleInit() {
    this.sections.register('tasks', async (m, projectId) => {
      const tasks = await recentTasks(m, projectId, RECENT_TASKS);
      if (tasks.length === 0) return null;
      return {
        key: 'tasks',
        title: 'Recent tasks',
        order: 40,
        lines: tasks.map((t) => `- [${t.status}] ${oneLine(t.description, LINE_MAX)} (${t.created_at.toISOString()})`),
      };
    });
  }
}

/** Collapses whitespace (line breaks included) and cuts at `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
