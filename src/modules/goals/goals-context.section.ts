import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { oneLine } from '../tasks/tasks-context.section';
import { Goal } from './goal.entity';

/** The "goal" section of the context block: north star, sprint label, then the goal text. */
@Injectable()
export class GoalsContextSection implements OnModuleInit {
  constructor(private readonly sections: ContextSections) {}

  onModuleInit() {
    this.sections.register('goal', async (m, projectId) => {
      const goal = await m.findOneBy(Goal, { project_id: projectId });
      if (!goal || goal.version === 0) return null;
      const lines: string[] = [];
      if (goal.north_star.trim()) lines.push(`North star: ${oneLine(goal.north_star, 1000)}`);
      if (goal.sprint) lines.push(`Sprint: ${goal.sprint}`);
      const content = goal.content.trim();
      if (content)
        lines.push(
          `Goal (version ${goal.version}):`,
          ...content
            .split('\n')
            .map((l) => l.trimEnd())
            .filter((l, i, all) => l !== '' || all[i - 1] !== ''),
        );
      if (lines.length === 0) return null;
      // A brief block keeps the goal whole: it is what every session works towards.
      return { key: 'goal', title: 'Goal', order: 20, lines, whole: true };
    });
  }
}
