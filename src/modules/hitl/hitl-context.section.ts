import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { oneLine } from '../tasks/tasks-context.section';
import { HitlRequest } from './hitl-request.entity';

/** Pending questions shown in the context block, most urgent first. */
const PENDING_LINES = 10;
const URGENCY_RANK: Record<string, number> = { blocking: 0, high: 1, normal: 2 };

/**
 * The "questions" section of the context block: questions to people still waiting for an answer,
 * so a session does not ask again what is already asked, nor work past a decision still open.
 * Not part of the board a handoff is checked against (questions come and go while work stands).
 */
@Injectable()
export class HitlContextSection implements OnModuleInit {
  constructor(private readonly sections: ContextSections) {}

  onModuleInit() {
    this.sections.register('hitl', async (m, projectId) => {
      const pending = await m.find(HitlRequest, { where: { project_id: projectId, status: 'pending' }, order: { created_at: 'ASC', id: 'ASC' }, take: 200 });
      if (pending.length === 0) return null;
      pending.sort((a, b) => (URGENCY_RANK[a.urgency] ?? 9) - (URGENCY_RANK[b.urgency] ?? 9) || a.created_at.getTime() - b.created_at.getTime());
      const lines = pending.slice(0, PENDING_LINES).map((q) => `[${q.urgency}] ${oneLine(q.question, 300)} (${q.id}, asked ${q.created_at.toISOString()})`);
      if (pending.length > PENDING_LINES) lines.push(`... and ${pending.length - PENDING_LINES} more (list_hitl_requests)`);
      return { key: 'hitl', title: 'Questions waiting for a person', order: 25, lines };
    });
  }
}
