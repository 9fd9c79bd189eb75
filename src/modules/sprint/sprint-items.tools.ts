import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AddSubtaskDto } from './dto/add-subtask.dto';
import { ClaimSprintItemDto, ReleaseSprintItemDto } from './dto/claim-sprint-item.dto';
import { CreateSprintItemDto } from './dto/create-sprint-item.dto';
import { SprintItemChoiceDto } from './dto/sprint-item-choice.dto';
import { SprintItemRefDto } from './dto/sprint-item-ref.dto';
import { ListSprintItemsQueryDto } from './dto/sprint-queries.dto';
import { SubtaskParentDto } from './dto/subtask-parent.dto';
import { CloseSprintItemDto, CompleteSprintItemDto, PushSprintItemDto, VerifySprintItemDto } from './dto/transition.dto';
import { UpdateSprintItemDto } from './dto/update-sprint-item.dto';
import { SprintClaimsService } from './sprint-claims.service';
import { SprintItemsService } from './sprint-items.service';
import { SprintTransitions } from './sprint-transitions.service';
import { SprintVerifications } from './sprint-verifications.service';

/** MCP tools for sprint items: the same service calls as the REST routes. */
@Injectable()
export class SprintItemsTools {
  constructor(
    private readonly items: SprintItemsService,
    private readonly claims: SprintClaimsService,
    private readonly transitions: SprintTransitions,
    private readonly verifications: SprintVerifications,
  ) {}

  @McpTool({
    name: 'add_sprint_item',
    annotations: ADDITIVE,
    description:
      'Add a sprint item (status pending). Refused with 409 DUPLICATE_TITLE when a pending or in-progress item has a near-duplicate title, unless force=true. Full parameter set: track, wave, priority, blocker_kind, deferred_until, touches_resources, required_notes, milestone_type, depends_on, failure_mode, prospect_bypass, sprint_name, notes.',
    params: ProjectIdDto,
    body: CreateSprintItemDto,
  })
  add(params: ProjectIdDto, body: CreateSprintItemDto) {
    return this.items.create(params.project_id, body);
  }

  @McpTool({
    name: 'list_sprint_items',
    annotations: READ_ONLY,
    description: 'List sprint items, most urgent then oldest first; filter by status (comma-separated, or active / terminal) and version.',
    params: ProjectIdDto,
    body: ListSprintItemsQueryDto,
  })
  list(params: ProjectIdDto, query: ListSprintItemsQueryDto) {
    return this.items.list(params.project_id, query);
  }

  @McpTool({ name: 'get_sprint_item', annotations: READ_ONLY, description: 'Get one sprint item by id, slug or nickname.', input: SprintItemRefDto })
  get(input: SprintItemRefDto) {
    return this.items.get(input.project_id, input.item_id);
  }

  @McpTool({
    name: 'update_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Change fields of a sprint item; status may only be reset to pending, todo or indeterminate. An in-progress item needs force=true.',
    params: SprintItemRefDto,
    body: UpdateSprintItemDto,
  })
  update(params: SprintItemRefDto, body: UpdateSprintItemDto) {
    return this.items.update(params.project_id, params.item_id, body);
  }

  @McpTool({ name: 'delete_sprint_item', annotations: DESTRUCTIVE, description: 'Delete a sprint item (its subtasks become top-level items).', input: SprintItemRefDto })
  async remove(input: SprintItemRefDto) {
    await this.items.remove(input.project_id, input.item_id);
    return { deleted: input.item_id };
  }

  @McpTool({
    name: 'claim_sprint_item',
    annotations: ADDITIVE,
    outputSchema: output({ claimed: 'boolean', item: ['object', 'null'] }),
    description: 'Claim a sprint item (item_id) or the next claimable one.',
    params: SprintItemChoiceDto,
    body: ClaimSprintItemDto,
  })
  claim(params: SprintItemChoiceDto, body: ClaimSprintItemDto) {
    return this.claims.claim(params.project_id, body, params.item_id);
  }

  @McpTool({
    name: 'release_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ released: 'boolean' }),
    description: 'Give back a sprint item this session holds.',
    params: SprintItemRefDto,
    body: ReleaseSprintItemDto,
  })
  release(params: SprintItemRefDto, body: ReleaseSprintItemDto) {
    return this.claims.release(params.project_id, params.item_id, body.session_id);
  }

  @McpTool({
    name: 'complete_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ status: 'string' }),
    description: 'Complete a sprint item (evidence: notes or task_id).',
    params: SprintItemRefDto,
    body: CompleteSprintItemDto,
  })
  complete(params: SprintItemRefDto, body: CompleteSprintItemDto) {
    return this.transitions.complete(params.project_id, params.item_id, body);
  }

  @McpTool({
    name: 'verify_sprint_item',
    annotations: ADDITIVE,
    outputSchema: output({ verified: 'boolean' }),
    description:
      'Record a verification of a claimed sprint item by another session: passed, or failed with a note (it stays in progress). Strict projects complete only after a pass.',
    params: SprintItemRefDto,
    body: VerifySprintItemDto,
  })
  verify(params: SprintItemRefDto, body: VerifySprintItemDto) {
    return this.verifications.verify(params.project_id, params.item_id, body);
  }

  @McpTool({
    name: 'fail_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ status: 'string' }),
    description: 'Mark a sprint item failed (optional reason).',
    params: SprintItemRefDto,
    body: CloseSprintItemDto,
  })
  fail(params: SprintItemRefDto, body: CloseSprintItemDto) {
    return this.transitions.fail(params.project_id, params.item_id, body);
  }

  @McpTool({
    name: 'skip_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Mark a sprint item skipped, with an optional reason.',
    params: SprintItemRefDto,
    body: CloseSprintItemDto,
  })
  skip(params: SprintItemRefDto, body: CloseSprintItemDto) {
    return this.transitions.skip(params.project_id, params.item_id, body);
  }

  @McpTool({
    name: 'push_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Push a sprint item to another version (status pushed, pushed_to set).',
    params: SprintItemRefDto,
    body: PushSprintItemDto,
  })
  push(params: SprintItemRefDto, body: PushSprintItemDto) {
    return this.transitions.push(params.project_id, params.item_id, body);
  }

  @McpTool({
    name: 'add_subtask',
    annotations: ADDITIVE,
    description:
      'Add a subtask under parent_id (id, slug or nickname), owned by ai (default) or human. When no subtask is active, all done/skipped makes the parent done; a failed one makes it indeterminate.',
    params: SubtaskParentDto,
    body: AddSubtaskDto,
  })
  addSubtask(params: SubtaskParentDto, body: AddSubtaskDto) {
    return this.items.addSubtask(params.project_id, params.parent_id, body);
  }
}
