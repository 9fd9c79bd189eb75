import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { AddDevlogToolDto } from './dto/add-devlog-tool.dto';
import { CreateInsightToolDto } from './dto/create-insight-tool.dto';
import { CreateNoteToolDto } from './dto/create-note-tool.dto';
import { ListInsightsToolDto } from './dto/list-insights-tool.dto';
import { ListNotesToolDto } from './dto/list-notes-tool.dto';
import { LogDecisionToolDto } from './dto/log-decision-tool.dto';
import { NoteIdParamsDto } from './dto/note-id-params.dto';
import { ProjectPageToolDto } from './dto/project-page-tool.dto';
import { UpdateNoteToolDto } from './dto/update-note-tool.dto';
import { DecisionLogService } from './decision-log.service';
import { DevlogService } from './devlog.service';
import { InsightsService } from './insights.service';
import { ProjectNotesService } from './project-notes.service';

@Injectable()
export class NotesTools {
  constructor(
    private readonly notes: ProjectNotesService,
    private readonly insights: InsightsService,
    private readonly decisions: DecisionLogService,
    private readonly devlog: DevlogService,
  ) {}

  @McpTool({ name: 'add_note', description: 'Add a note (title, markdown body, tags) to a project.', input: CreateNoteToolDto })
  addNote(input: CreateNoteToolDto) {
    return this.notes.create(input.project_id, input);
  }

  @McpTool({ name: 'get_notes', description: "A project's notes, newest first; tag (exact) and query (substring of title or body) narrow them.", input: ListNotesToolDto })
  getNotes(input: ListNotesToolDto) {
    return this.notes.list(input.project_id, input);
  }

  @McpTool({ name: 'update_note', description: 'Change the title, body and/or tags of a project note.', input: UpdateNoteToolDto })
  updateNote(input: UpdateNoteToolDto) {
    return this.notes.update(input.project_id, input.note_id, input);
  }

  @McpTool({ name: 'delete_note', description: 'Delete a project note.', input: NoteIdParamsDto })
  async deleteNote(input: NoteIdParamsDto) {
    await this.notes.remove(input.project_id, input.note_id);
    return { deleted: input.note_id };
  }

  @McpTool({ name: 'add_insight', description: 'Record an insight about a project (horizon permanent, year or quarter; default quarter).', input: CreateInsightToolDto })
  addInsight(input: CreateInsightToolDto) {
    return this.insights.create(input.project_id, input);
  }

  @McpTool({ name: 'get_insights', description: "A project's insights, newest first, optionally of one horizon.", input: ListInsightsToolDto })
  getInsights(input: ListInsightsToolDto) {
    return this.insights.list(input.project_id, input);
  }

  @McpTool({ name: 'log_decision', description: "Append a decision to a project's decision log (title: what was decided; body: why).", input: LogDecisionToolDto })
  logDecision(input: LogDecisionToolDto) {
    return this.decisions.append(input.project_id, input);
  }

  @McpTool({ name: 'get_decision_log', description: "A project's decision log, newest first.", input: ProjectPageToolDto })
  getDecisionLog(input: ProjectPageToolDto) {
    return this.decisions.list(input.project_id, input);
  }

  @McpTool({ name: 'add_devlog_entry', description: "Append an entry to a project's development log.", input: AddDevlogToolDto })
  addDevlog(input: AddDevlogToolDto) {
    return this.devlog.append(input.project_id, input);
  }

  @McpTool({ name: 'get_devlog', description: "A project's development log, newest first.", input: ProjectPageToolDto })
  getDevlog(input: ProjectPageToolDto) {
    return this.devlog.list(input.project_id, input);
  }
}
