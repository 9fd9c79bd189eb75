import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { FrameworkEventDto } from './dto/framework-event.dto';
import { RewindAtDto } from './dto/rewind-query.dto';
import { StatsQueryDto } from './dto/stats-query.dto';
import { FrameworkEventsService } from './framework-events.service';
import { ProjectStatsService } from './project-stats.service';
import { RewindService } from './rewind.service';

@Injectable()
export class TimeTools {
  constructor(
    private readonly stats: ProjectStatsService,
    private readonly rewind: RewindService,
    private readonly events: FrameworkEventsService,
  ) {}

  @McpTool({
    name: 'get_project_stats',
    annotations: READ_ONLY,
    description: "A project's figures: items by status, tasks per day, sessions, HITL, claim times, latest auto-summary.",
    params: ProjectIdDto,
    body: StatsQueryDto,
  })
  getStats(params: ProjectIdDto, body: StatsQueryDto) {
    return this.stats.stats(params.project_id, body.days);
  }

  @McpTool({
    name: 'get_runtime_diagnostics',
    annotations: READ_ONLY,
    description: "A project's live runtime: active sessions with heartbeats, file locks, claims, push state.",
    input: ProjectIdDto,
  })
  getRuntimeDiagnostics(input: ProjectIdDto) {
    return this.stats.runtimeDiagnostics(input.project_id);
  }

  @McpTool({
    name: 'rewind_project',
    annotations: READ_ONLY,
    description: 'The project at a past time `at` (ISO 8601): goal, sprint items, pinned decisions, notes.',
    params: ProjectIdDto,
    body: RewindAtDto,
  })
  rewindProject(params: ProjectIdDto, body: RewindAtDto) {
    return this.rewind.at(params.project_id, body.at);
  }

  @McpTool({
    name: 'record_framework_event',
    annotations: ADDITIVE,
    description: "Log an agent framework's event (tool_use, tool_result, step, error, message) as a task.",
    params: ProjectIdDto,
    body: FrameworkEventDto,
  })
  recordEvent(params: ProjectIdDto, body: FrameworkEventDto) {
    return this.events.record(params.project_id, body);
  }
}
