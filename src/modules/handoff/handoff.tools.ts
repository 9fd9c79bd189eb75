import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AcceptHandoffToolDto } from './dto/accept-handoff-tool.dto';
import { GenerateHandoffToolDto } from './dto/generate-handoff-tool.dto';
import { LatestCorrectionToolDto } from './dto/latest-correction-tool.dto';
import { QueueSessionToolDto } from './dto/queue-session-tool.dto';
import { RecordCorrectionToolDto } from './dto/record-correction-tool.dto';
import { HandoffCorrectionsService } from './handoff-corrections.service';
import { HandoffAcceptService } from './handoff-accept.service';
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
    description:
      'Write a handoff for whoever works on the project next: {file_path, content}, content starting with front matter. Modes: goal, starter, delta, planner, full (default delta when an earlier handoff exists, goal otherwise). A queued session goal is included once.',
    input: GenerateHandoffToolDto,
  })
  generate(input: GenerateHandoffToolDto) {
    return this.handoffs.generate(input.project_id, input);
  }

  @McpTool({
    name: 'accept_handoff',
    description:
      'Check, without changing anything, whether a handoff is still good to work from: status ok, or not_found, wrong_project, expired, already_consumed, body_mismatch, stale, board_diverged, tools_drifted. Give handoff_id, token or the content as received.',
    input: AcceptHandoffToolDto,
  })
  accept(input: AcceptHandoffToolDto) {
    return this.acceptance.accept(input.project_id, input);
  }

  @McpTool({
    name: 'record_handoff_correction',
    description: 'Record a corrective handoff for a blocked executor session: a one-line summary and what to do instead.',
    input: RecordCorrectionToolDto,
  })
  recordCorrection(input: RecordCorrectionToolDto) {
    return this.corrections.record(input.project_id, input);
  }

  @McpTool({
    name: 'get_latest_handoff_correction',
    description: 'The latest corrective handoff of the project (of one session when session_id is given), or null.',
    input: LatestCorrectionToolDto,
  })
  latestCorrection(input: LatestCorrectionToolDto) {
    return this.corrections.latest(input.project_id, input.session_id);
  }

  @McpTool({ name: 'get_planner_handoff', description: 'A planner-optimised handoff of the project as it is now (a preview: nothing is recorded).', input: ProjectIdDto })
  planner(input: ProjectIdDto) {
    return this.handoffs.planner(input.project_id);
  }

  @McpTool({
    name: 'queue_session',
    description: "Queue the goal of the project's next session; the next generated handoff carries it once. Replaces a goal queued earlier.",
    input: QueueSessionToolDto,
  })
  queueSession(input: QueueSessionToolDto) {
    return this.queue.queue(input.project_id, input.goal);
  }

  @McpTool({ name: 'get_queued_session', description: 'The goal queued for the next session, or null.', input: ProjectIdDto })
  queuedSession(input: ProjectIdDto) {
    return this.queue.get(input.project_id);
  }
}
