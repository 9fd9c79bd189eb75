import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AcceptHandoffDto } from './dto/accept-handoff.dto';
import { GenerateHandoffDto } from './dto/generate-handoff.dto';
import { LatestCorrectionQueryDto } from './dto/latest-correction-query.dto';
import { QueueSessionDto } from './dto/queue-session.dto';
import { RecordCorrectionDto } from './dto/record-correction.dto';
import { HandoffAcceptService } from './handoff-accept.service';
import { HandoffCorrectionsService } from './handoff-corrections.service';
import { HandoffService } from './handoff.service';
import { QueuedSessionsService } from './queued-sessions.service';

@Injectable()
export class HandoffTools {
  constructor(
    private readonly handoffs: HandoffService,
    private readonly acceptance: HandoffAcceptService,
    private readonly corrections: HandoffCorrectionsService,
    private readonly queue: QueuedSessionsService,
  ) {}

  @McpTool({
    name: 'generate_handoff',
    annotations: ADDITIVE,
    outputSchema: output({ content: 'string', token: 'string' }),
    description: 'Write a handoff for whoever works on the project next.',
    params: ProjectIdDto,
    body: GenerateHandoffDto,
  })
  generate(params: ProjectIdDto, body: GenerateHandoffDto) {
    return this.handoffs.generate(params.project_id, body);
  }

  @McpTool({
    name: 'accept_handoff',
    annotations: READ_ONLY,
    outputSchema: output({ status: 'string', valid: 'boolean' }),
    description: 'Check, changing nothing, that a handoff is still good.',
    params: ProjectIdDto,
    body: AcceptHandoffDto,
  })
  accept(params: ProjectIdDto, body: AcceptHandoffDto) {
    return this.acceptance.accept(params.project_id, body);
  }

  @McpTool({
    name: 'record_handoff_correction',
    annotations: ADDITIVE,
    description: 'Record a corrective handoff for a blocked executor session: a one-line summary and what to do instead.',
    params: ProjectIdDto,
    body: RecordCorrectionDto,
  })
  recordCorrection(params: ProjectIdDto, body: RecordCorrectionDto) {
    return this.corrections.record(params.project_id, body);
  }

  @McpTool({
    name: 'get_latest_handoff_correction',
    annotations: READ_ONLY,
    description: 'The latest corrective handoff of the project (of one session when session_id is given), or null.',
    params: ProjectIdDto,
    body: LatestCorrectionQueryDto,
  })
  latestCorrection(params: ProjectIdDto, query: LatestCorrectionQueryDto) {
    return this.corrections.latest(params.project_id, query.session_id);
  }

  @McpTool({
    name: 'get_planner_handoff',
    annotations: READ_ONLY,
    description: 'A planner-optimised handoff of the project as it is now (a preview: nothing is recorded).',
    input: ProjectIdDto,
  })
  planner(input: ProjectIdDto) {
    return this.handoffs.planner(input.project_id);
  }

  @McpTool({
    name: 'queue_session',
    annotations: IDEMPOTENT_UPDATE,
    description: "Queue the goal of the project's next session; the next generated handoff carries it once. Replaces a goal queued earlier.",
    params: ProjectIdDto,
    body: QueueSessionDto,
  })
  queueSession(params: ProjectIdDto, body: QueueSessionDto) {
    return this.queue.queue(params.project_id, body.goal);
  }

  @McpTool({ name: 'get_queued_session', annotations: READ_ONLY, description: 'The goal queued for the next session, or null.', input: ProjectIdDto })
  queuedSession(input: ProjectIdDto) {
    return this.queue.get(input.project_id);
  }
}
