import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { SessionIdDto } from '../sessions/dto/session-id.dto';
import { ContextBlockService } from './context-block.service';
import { AddSessionNoteDto } from './dto/add-session-note.dto';
import { ContextBlockQueryDto } from './dto/context-block-query.dto';
import { ListSessionNotesQueryDto } from './dto/list-session-notes-query.dto';
import { StartSessionDto } from './dto/start-session.dto';
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
    annotations: ADDITIVE,
    outputSchema: output({ session_id: 'string', context_block: 'string' }),
    description: 'Start a session: session_id, file_warnings, context block.',
    params: ProjectIdDto,
    body: StartSessionDto,
  })
  startSession(params: ProjectIdDto, body: StartSessionDto) {
    return this.starts.start(params.project_id, body, 'interactive');
  }

  @McpTool({
    name: 'start_worker_session',
    annotations: ADDITIVE,
    description: 'start_session for an executor (a session of kind worker): same answer, same file warnings and context.',
    params: ProjectIdDto,
    body: StartSessionDto,
  })
  startWorkerSession(params: ProjectIdDto, body: StartSessionDto) {
    return this.starts.start(params.project_id, body, 'worker');
  }

  @McpTool({
    name: 'get_context_block',
    annotations: READ_ONLY,
    outputSchema: output({ text: 'string' }),
    description: "The project's context block as text.",
    params: ProjectIdDto,
    body: ContextBlockQueryDto,
  })
  getContextBlock(params: ProjectIdDto, query: ContextBlockQueryDto) {
    return this.blocks.wrapped(params.project_id, query.mode);
  }

  @McpTool({
    name: 'get_project_context',
    annotations: READ_ONLY,
    description: 'Onboarding for a project: the context block with its sections, active sessions, file locks and what to do first.',
    params: ProjectIdDto,
    body: ContextBlockQueryDto,
  })
  getProjectContext(params: ProjectIdDto, query: ContextBlockQueryDto) {
    return this.blocks.onboarding(params.project_id, query.mode);
  }

  @McpTool({
    name: 'add_session_note',
    annotations: ADDITIVE,
    description: "Add a note to your session's scratch pad (kept for you and for whoever takes over).",
    params: SessionIdDto,
    body: AddSessionNoteDto,
  })
  addSessionNote(params: SessionIdDto, body: AddSessionNoteDto) {
    return this.notes.add(params.session_id, body.body);
  }

  @McpTool({
    name: 'get_session_notes',
    annotations: READ_ONLY,
    description: "A session's scratch-pad notes, newest first (limit default 50, at most 200).",
    params: SessionIdDto,
    body: ListSessionNotesQueryDto,
  })
  getSessionNotes(params: SessionIdDto, query: ListSessionNotesQueryDto) {
    return this.notes.list(params.session_id, query.limit, query.offset);
  }
}
