import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { oneLine } from '../tasks/tasks-context.section';
import { CONTEXT_DECISIONS } from './notes.constants';
import { PinnedDecision } from './pinned-decision.entity';

/** The "decisions" section of the context block: the newest active pinned decisions. */
@Injectable()
export class PinnedDecisionsContextSection implements OnModuleInit {
  constructor(private readonly sections: ContextSections) {}

  onModuleInit() {
    this.sections.register('decisions', async (m, projectId) => {
      const decisions = await m.find(PinnedDecision, {
        where: { project_id: projectId, status: 'active' },
        order: { created_at: 'DESC', id: 'DESC' },
        take: CONTEXT_DECISIONS,
      });
      if (decisions.length === 0) return null;
      return {
        key: 'decisions',
        title: 'Pinned decisions',
        order: 50,
        lines: decisions.map((d) => `- ${oneLine(d.title, 300)}${d.body.trim() ? `: ${oneLine(d.body, 400)}` : ''}`),
      };
    });
  }
}
