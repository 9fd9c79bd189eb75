import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AiLogArchiveService } from './ai-log-archive.service';
import { AiLogExportConfigService } from './ai-log-export-config.service';
import { AiLogOtelExportService } from './ai-log-otel-export.service';
import { AiLogTimelineService } from './ai-log-timeline.service';
import { ExportAiLogDto } from './dto/export-ai-log.dto';
import { ExportScopeDto } from './dto/export-scope.dto';
import { PurgeAiLogDto } from './dto/purge-ai-log.dto';
import { SessionTimelineQueryDto } from './dto/session-timeline-query.dto';
import { SetExportConfigDto } from './dto/set-export-config.dto';
import { TimelineQueryDto } from './dto/timeline-query.dto';

@Injectable()
export class AiLogTools {
  constructor(
    private readonly timelines: AiLogTimelineService,
    private readonly archive: AiLogArchiveService,
    private readonly exports: AiLogOtelExportService,
    private readonly exportConfig: AiLogExportConfigService,
  ) {}

  @McpTool({
    name: 'get_timeline',
    annotations: READ_ONLY,
    description:
      "A project's AI-log, newest first: session starts, tool calls (arguments redacted) and handoff corrections. Filter by since/until, session_id, kind; page with cursor.",
    params: ProjectIdDto,
    body: TimelineQueryDto,
  })
  timeline(params: ProjectIdDto, query: TimelineQueryDto) {
    return this.timelines.timeline(params.project_id, query);
  }

  @McpTool({
    name: 'get_session_timeline',
    annotations: READ_ONLY,
    description: "A project's sessions with their activity (counts, tools used, errors, their latest events), most recently active first.",
    params: ProjectIdDto,
    body: SessionTimelineQueryDto,
  })
  sessionTimeline(params: ProjectIdDto, query: SessionTimelineQueryDto) {
    return this.timelines.sessionTimeline(params.project_id, query);
  }

  @McpTool({
    name: 'export_ai_log',
    annotations: READ_ONLY,
    description: 'The AI-log of a time range as JSON lines (one event per line, oldest first), for a project or the whole workspace. Follow next_cursor while truncated.',
    input: ExportAiLogDto,
  })
  exportJsonLines(input: ExportAiLogDto) {
    return this.archive.exportJsonLines(input);
  }

  @McpTool({
    name: 'purge_ai_log',
    annotations: DESTRUCTIVE,
    description: 'Remove AI-log events older than a date (of one project, or of the whole workspace); answers how many were removed.',
    input: PurgeAiLogDto,
  })
  purge(input: PurgeAiLogDto) {
    return this.archive.purge(input);
  }

  @McpTool({
    name: 'export_ai_log_otel',
    annotations: { ...ADDITIVE, openWorldHint: true },
    description:
      "Run one OTLP export pass of a project's AI-log (without project_id: of the events that belong to no project), from the durable watermark. Answers ok, degraded (call again to resume), disabled, not_configured, unavailable, busy or refused (the project's endpoint is an internal address hosted Baton does not connect to); more=true when events still wait.",
    input: ExportScopeDto,
  })
  exportOtel(input: ExportScopeDto) {
    return this.exports.exportPass(input.project_id ?? null);
  }

  @McpTool({
    name: 'set_ai_log_export_config',
    annotations: IDEMPOTENT_UPDATE,
    description:
      "Set a project's AI-log export endpoint (used when the operator set none) and service name, or switch its export off with enabled=false. Cannot switch export on when the operator has it off; never accepts credentials.",
    input: SetExportConfigDto,
  })
  setConfig(input: SetExportConfigDto) {
    return this.exportConfig.set(input);
  }

  @McpTool({
    name: 'get_ai_log_export_status',
    annotations: READ_ONLY,
    description:
      "The effective AI-log export configuration of a project (header values never shown), its watermark, pending events and the last attempt's outcome. Makes no network call.",
    input: ExportScopeDto,
  })
  status(input: ExportScopeDto) {
    return this.exports.status(input.project_id ?? null);
  }
}
