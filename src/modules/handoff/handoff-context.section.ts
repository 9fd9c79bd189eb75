import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { HandoffLedger } from './handoff-ledger.service';

/**
 * The "handoff" section of the context block: the handoff waiting for a session to start from it,
 * what it carries and how to take it, so a new session learns of it without anyone passing a token.
 * Not part of the board a handoff is checked against (`ContextBlockService.boardHash`).
 */
@Injectable()
export class HandoffContextSection implements OnModuleInit {
  constructor(
    private readonly sections: ContextSections,
    private readonly ledger: HandoffLedger,
  ) {}

  onModuleInit() {
    this.sections.register('handoff', async (m, projectId) => {
      const waiting = await this.ledger.waiting(m, projectId);
      if (!waiting) return null;
      const from = waiting.from_session_name ? ` from session ${waiting.from_session_name}` : '';
      const carries = waiting.carries
        ? `; it carries ${waiting.carries.sprint_items} sprint item(s), ${waiting.carries.tasks} task(s) and ${waiting.carries.file_locks} file lock(s), held for whoever takes it`
        : '';
      return {
        key: 'handoff',
        title: 'Handoff waiting',
        order: 15,
        lines: [
          `- ${waiting.mode} handoff ${waiting.handoff_id}${from}, generated ${waiting.generated_at}, expires ${waiting.expires_at}${carries}.`,
          `- To continue from it: start_session with handoff_id ${waiting.handoff_id}.`,
        ],
      };
    });
  }
}
