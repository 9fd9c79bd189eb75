import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ArchiveOldestToolDto } from './dto/archive-oldest-tool.dto';
import { DecisionIdParamsDto } from './dto/decision-id-params.dto';
import { PinDecisionToolDto } from './dto/pin-decision-tool.dto';
import { PinnedListToolDto } from './dto/pinned-list-tool.dto';
import { ReplaceAllDecisionsToolDto } from './dto/replace-all-decisions-tool.dto';
import { UpdatePinnedDecisionToolDto } from './dto/update-pinned-decision-tool.dto';
import { PinnedDecisionsService } from './pinned-decisions.service';

@Injectable()
export class PinnedDecisionsTools {
  constructor(private readonly pinned: PinnedDecisionsService) {}

  @McpTool({
    name: 'pin_decision',
    description: 'Pin a decision to a project (shown in every context block). Refused at max_pinned_decisions (default 20) until one is archived or superseded.',
    input: PinDecisionToolDto,
  })
  pin(input: PinDecisionToolDto) {
    return this.pinned.pin(input.project_id, input);
  }

  @McpTool({
    name: 'get_pinned_decisions',
    description: "A project's active pinned decisions, newest first; include_superseded=true lists every one with its supersede links.",
    input: PinnedListToolDto,
  })
  list(input: PinnedListToolDto) {
    return this.pinned.list(input.project_id, input.include_superseded);
  }

  @McpTool({
    name: 'update_pinned_decision',
    description:
      'Edit a pinned decision (title, body, status active/archived), or supersede it with new_title/new_body: a new active decision replaces it and it is kept as superseded.',
    input: UpdatePinnedDecisionToolDto,
  })
  update(input: UpdatePinnedDecisionToolDto) {
    return this.pinned.update(input.project_id, input.decision_id, input);
  }

  @McpTool({ name: 'delete_pinned_decision', description: 'Delete a pinned decision for good.', input: DecisionIdParamsDto })
  async remove(input: DecisionIdParamsDto) {
    await this.pinned.remove(input.project_id, input.decision_id);
    return { deleted: input.decision_id };
  }

  @McpTool({ name: 'archive_oldest_decisions', description: 'Archive the oldest active pinned decision(s) of a project (count, default 1).', input: ArchiveOldestToolDto })
  archiveOldest(input: ArchiveOldestToolDto) {
    return this.pinned.archiveOldest(input.project_id, input.count);
  }

  @McpTool({
    name: 'replace_pinned_decisions',
    description: 'Atomically replace the active pinned decisions of a project with the given list (newest first); the old ones are archived.',
    input: ReplaceAllDecisionsToolDto,
  })
  replaceAll(input: ReplaceAllDecisionsToolDto) {
    return this.pinned.replaceAll(input.project_id, input.decisions);
  }
}
