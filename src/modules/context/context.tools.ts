import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ContextBlockService } from './context-block.service';
import { AddSessionNoteToolDto } from './dto/add-session-note-tool.dto';
import { ContextBlockToolDto } from './dto/context-block-tool.dto';
import { ListSessionNotesToolDto } from './dto/list-session-notes-tool.dto';
import { StartSessionToolDto } from './dto/start-session-tool.dto';
import { SessionNotesService } from './session-notes.service';
import { StartSessionService } from './start-session.service';

@Injectable()
export class ContextTools {
  constructor(
    private readonly starts: StartSessionService,
    private readonly blocks: ContextBlockService,
    private readonly notes: SessionNotesService,
  ) {}

  @McpTool({
    name: 'start_session',
    description:
      'Start working on a project in one call: registers your session and answers session_id, file_warnings (files other live sessions hold) and the context block. Pass handoff_token to start from a handoff (single use).',
    input: StartSessionToolDto,
  })
  startSession(input: StartSessionToolDto) {
    return this.starts.start(input.project_id, input, 'interactive');
  }

  @McpTool({
    name: 'start_worker_session',
    description: 'start_session for an executor (a session of kind worker): same answer, same file warnings and context.',
    input: StartSessionToolDto,
  })
  startWorkerSession(input: StartSessionToolDto) {
    return this.starts.start(input.project_id, input, 'worker');
  }

  @McpTool({
    name: 'get_context_block',
    description:
      "The project's context block as text: workspace notes and decisions, goal, sprint items, recent tasks, pinned decisions, active sessions. mode=brief gives the first lines of each section.",
    input: ContextBlockToolDto,
  })
  getContextBlock(input: ContextBlockToolDto) {
    return this.blocks.wrapped(input.project_id, input.mode);
  }

  @McpTool({
    name: 'get_project_context',
    description: 'Onboarding for a project: the context block with its sections, active sessions, file locks and what to do first.',
    input: ContextBlockToolDto,
  })
  getProjectContext(input: ContextBlockToolDto) {
    return this.blocks.onboarding(input.project_id, input.mode);
  }

  @McpTool({ name: 'add_session_note', description: "Add a note to your session's scratch pad (kept for you and for whoever takes over).", input: AddSessionNoteToolDto })
  addSessionNote(input: AddSessionNoteToolDto) {
    return this.notes.add(input.session_id, input.body);
  }

  @McpTool({ name: 'get_session_notes', description: "A session's scratch-pad notes, newest first (limit default 50, at most 200).", input: ListSessionNotesToolDto })
  getSessionNotes(input: ListSessionNotesToolDto) {
    return this.notes.list(input.session_id, input.limit, input.offset);
  }
}
