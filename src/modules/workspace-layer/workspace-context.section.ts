import { Injectable, OnModuleInit } from '@nestjs/common';
import { ContextSections } from '../../common/extensions/context-sections';
import { oneLine } from '../tasks/tasks-context.section';
import { WorkspaceDecision } from './workspace-decision.entity';
import { WorkspaceNote } from './workspace-note.entity';
import { WorkspaceSettingsService } from './workspace-settings.service';

/**
 * The "workspace" section, at the head of every project's context block:
 * active workspace decisions (binding, so first), then workspace notes,
 * newest first, as many as the workspace settings allow.
 */
@Injectable()
export class WorkspaceContextSection implements OnModuleInit {
  constructor(
    private readonly sections: ContextSections,
    private readonly settings: WorkspaceSettingsService,
  ) {}

  onModuleInit() {
    this.sections.register('workspace', async (m) => {
      const { context_notes_limit: notesLimit, context_decisions_limit: decisionsLimit } = await this.settings.read(m);
      const newest = { created_at: 'DESC', id: 'DESC' } as const;
      const decisions = decisionsLimit > 0 ? await m.find(WorkspaceDecision, { where: { status: 'active' }, order: newest, take: decisionsLimit }) : [];
      const notes = notesLimit > 0 ? await m.find(WorkspaceNote, { order: newest, take: notesLimit }) : [];
      if (decisions.length === 0 && notes.length === 0) return null;
      const line = (kind: string, title: string, body: string) => `- ${kind}: ${oneLine(title, 300)}${body.trim() ? ` — ${oneLine(body, 500)}` : ''}`;
      return {
        key: 'workspace',
        title: 'Workspace',
        order: 10,
        lines: [...decisions.map((d) => line('Decision', d.title, d.body)), ...notes.map((n) => line('Note', n.title, n.body))],
      };
    });
  }
}
