import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ArchiveOldestDto } from './dto/archive-oldest.dto';
import { DecisionIdParamsDto } from './dto/decision-id-params.dto';
import { PinDecisionDto } from './dto/pin-decision.dto';
import { PinnedListQueryDto } from './dto/pinned-list-query.dto';
import { ReplaceAllDecisionsDto } from './dto/replace-all-decisions.dto';
import { UpdatePinnedDecisionDto } from './dto/update-pinned-decision.dto';
import { PinnedDecisionsService } from './pinned-decisions.service';

@Injectable()
export class PinnedDecisionsTools {
  constructor(private readonly pinned: PinnedDecisionsService) {}

  @McpTool({
    name: 'pin_decision',
    annotations: ADDITIVE,
    description: 'Pin a decision to a project (shown in every context block). Refused at max_pinned_decisions (default 20) until one is archived or superseded.',
    params: ProjectIdDto,
    body: PinDecisionDto,
  })
  pin(params: ProjectIdDto, body: PinDecisionDto) {
    return this.pinned.pin(params.project_id, body);
  }

  @McpTool({
    name: 'get_pinned_decisions',
    annotations: READ_ONLY,
    description: "A project's active pinned decisions, newest first; include_superseded=true lists every one with its supersede links.",
    params: ProjectIdDto,
    body: PinnedListQueryDto,
  })
  list(params: ProjectIdDto, query: PinnedListQueryDto) {
    return this.pinned.list(params.project_id, query.include_superseded);
  }

  @McpTool({
    name: 'update_pinned_decision',
    annotations: IDEMPOTENT_UPDATE,
    description:
      'Edit a pinned decision (title, body, status active/archived), or supersede it with new_title/new_body: a new active decision replaces it and it is kept as superseded.',
    params: DecisionIdParamsDto,
    body: UpdatePinnedDecisionDto,
  })
  update(params: DecisionIdParamsDto, body: UpdatePinnedDecisionDto) {
    return this.pinned.update(params.project_id, params.decision_id, body);
  }

  @McpTool({ name: 'delete_pinned_decision', annotations: DESTRUCTIVE, description: 'Delete a pinned decision for good.', input: DecisionIdParamsDto })
  async remove(input: DecisionIdParamsDto) {
    await this.pinned.remove(input.project_id, input.decision_id);
    return { deleted: input.decision_id };
  }

  @McpTool({
    name: 'archive_oldest_decisions',
    annotations: { ...DESTRUCTIVE, idempotentHint: false },
    description: 'Archive the oldest active pinned decision(s) of a project (count, default 1).',
    params: ProjectIdDto,
    body: ArchiveOldestDto,
  })
  archiveOldest(params: ProjectIdDto, body: ArchiveOldestDto) {
    return this.pinned.archiveOldest(params.project_id, body.count);
  }

  @McpTool({
    name: 'replace_pinned_decisions',
    annotations: { ...DESTRUCTIVE, idempotentHint: false },
    description: 'Atomically replace the active pinned decisions of a project with the given list (newest first); the old ones are archived.',
    params: ProjectIdDto,
    body: ReplaceAllDecisionsDto,
  })
  replaceAll(params: ProjectIdDto, body: ReplaceAllDecisionsDto) {
    return this.pinned.replaceAll(params.project_id, body.decisions);
  }
}
