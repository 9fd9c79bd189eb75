import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { DecisionConsolidationService } from './decision-consolidation.service';
import { DecisionLogService } from './decision-log.service';
import { DevlogService } from './devlog.service';
import { AddDevlogDto } from './dto/add-devlog.dto';
import { CreateInsightDto } from './dto/create-insight.dto';
import { CreateNoteDto } from './dto/create-note.dto';
import { ListInsightsQueryDto } from './dto/list-insights-query.dto';
import { ListNotesQueryDto } from './dto/list-notes-query.dto';
import { LogDecisionDto } from './dto/log-decision.dto';
import { NoteIdParamsDto } from './dto/note-id-params.dto';
import { UpdateNoteDto } from './dto/update-note.dto';
import { InsightsService } from './insights.service';
import { ProjectNotesService } from './project-notes.service';

@Injectable()
export class NotesTools {
  constructor(
    private readonly notes: ProjectNotesService,
    private readonly insights: InsightsService,
    private readonly decisions: DecisionLogService,
    private readonly devlog: DevlogService,
    private readonly consolidation: DecisionConsolidationService,
  ) {}

  @McpTool({
    name: 'add_note',
    annotations: ADDITIVE,
    outputSchema: output({ id: 'string' }),
    description: 'Add a note (title, body, tags) to a project.',
    params: ProjectIdDto,
    body: CreateNoteDto,
  })
  addNote(params: ProjectIdDto, body: CreateNoteDto) {
    return this.notes.create(params.project_id, body);
  }

  @McpTool({
    name: 'get_notes',
    annotations: READ_ONLY,
    description: "A project's notes, newest first; tag (exact) and query (substring of title or body) narrow them.",
    params: ProjectIdDto,
    body: ListNotesQueryDto,
  })
  getNotes(params: ProjectIdDto, query: ListNotesQueryDto) {
    return this.notes.list(params.project_id, query);
  }

  @McpTool({
    name: 'update_note',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Change the title, body and/or tags of a project note.',
    params: NoteIdParamsDto,
    body: UpdateNoteDto,
  })
  updateNote(params: NoteIdParamsDto, body: UpdateNoteDto) {
    return this.notes.update(params.project_id, params.note_id, body);
  }

  @McpTool({ name: 'delete_note', annotations: DESTRUCTIVE, description: 'Delete a project note.', input: NoteIdParamsDto })
  async deleteNote(input: NoteIdParamsDto) {
    await this.notes.remove(input.project_id, input.note_id);
    return { deleted: input.note_id };
  }

  @McpTool({
    name: 'add_insight',
    annotations: ADDITIVE,
    description: 'Record an insight about a project (horizon permanent, year or quarter; default quarter).',
    params: ProjectIdDto,
    body: CreateInsightDto,
  })
  addInsight(params: ProjectIdDto, body: CreateInsightDto) {
    return this.insights.create(params.project_id, body);
  }

  @McpTool({
    name: 'get_insights',
    annotations: READ_ONLY,
    description: "A project's insights, newest first, optionally of one horizon.",
    params: ProjectIdDto,
    body: ListInsightsQueryDto,
  })
  getInsights(params: ProjectIdDto, query: ListInsightsQueryDto) {
    return this.insights.list(params.project_id, query);
  }

  @McpTool({
    name: 'log_decision',
    annotations: ADDITIVE,
    outputSchema: output({ id: 'string' }),
    description: 'Log a decision (title: what; body: why).',
    params: ProjectIdDto,
    body: LogDecisionDto,
  })
  logDecision(params: ProjectIdDto, body: LogDecisionDto) {
    return this.decisions.append(params.project_id, body);
  }

  @McpTool({ name: 'get_decision_log', annotations: READ_ONLY, description: "A project's decision log, newest first.", params: ProjectIdDto, body: PageQueryDto })
  getDecisionLog(params: ProjectIdDto, query: PageQueryDto) {
    return this.decisions.list(params.project_id, query);
  }

  @McpTool({ name: 'add_devlog_entry', annotations: ADDITIVE, description: "Append an entry to a project's development log.", params: ProjectIdDto, body: AddDevlogDto })
  addDevlog(params: ProjectIdDto, body: AddDevlogDto) {
    return this.devlog.append(params.project_id, body);
  }

  @McpTool({ name: 'get_devlog', annotations: READ_ONLY, description: "A project's development log, newest first.", params: ProjectIdDto, body: PageQueryDto })
  getDevlog(params: ProjectIdDto, query: PageQueryDto) {
    return this.devlog.list(params.project_id, query);
  }

  @McpTool({
    name: 'consolidate_decisions',
    annotations: { ...ADDITIVE, openWorldHint: true },
    description: "De-duplicate a project's decision log through the configured model provider (duplicates get superseded_by_id).",
    input: ProjectIdDto,
  })
  consolidateDecisions(params: ProjectIdDto) {
    return this.consolidation.consolidate(params.project_id);
  }
}
