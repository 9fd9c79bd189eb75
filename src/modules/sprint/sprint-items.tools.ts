import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { SprintItemRefDto } from './dto/sprint-item-ref.dto';
import {
  AddSprintItemToolDto,
  AddSubtaskToolDto,
  ClaimSprintItemToolDto,
  CloseSprintItemToolDto,
  CompleteSprintItemToolDto,
  ListSprintItemsToolDto,
  PushSprintItemToolDto,
  ReleaseSprintItemToolDto,
  UpdateSprintItemToolDto,
} from './dto/sprint-tool-inputs.dto';
import { SprintClaimsService } from './sprint-claims.service';
import { SprintItemsService } from './sprint-items.service';
import { SprintTransitions } from './sprint-transitions.service';

/** MCP tools for sprint items: the same service calls as the REST routes. */
@Injectable()
export class SprintItemsTools {
  constructor(
    private readonly items: SprintItemsService,
    private readonly claims: SprintClaimsService,
    private readonly transitions: SprintTransitions,
  ) {}

  @McpTool({
    name: 'add_sprint_item',
    description:
      'Add a sprint item (status pending). Refused with 409 DUPLICATE_TITLE when a pending or in-progress item has a near-duplicate title, unless force=true. Full parameter set: track, wave, priority, blocker_kind, deferred_until, touches_resources, required_notes, milestone_type, depends_on, failure_mode, prospect_bypass, sprint_name, notes.',
    input: AddSprintItemToolDto,
  })
  add(input: AddSprintItemToolDto) {
    const { project_id, ...body } = input;
    return this.items.create(project_id, body);
  }

  @McpTool({
    name: 'list_sprint_items',
    description: 'List sprint items, most urgent then oldest first; filter by status (comma-separated, or active / terminal) and version.',
    input: ListSprintItemsToolDto,
  })
  list(input: ListSprintItemsToolDto) {
    const { project_id, ...query } = input;
    return this.items.list(project_id, query);
  }

  @McpTool({ name: 'get_sprint_item', description: 'Get one sprint item by id, slug or nickname.', input: SprintItemRefDto })
  get(input: SprintItemRefDto) {
    return this.items.get(input.project_id, input.item_id);
  }

  @McpTool({
    name: 'update_sprint_item',
    description: 'Change fields of a sprint item; status may only be reset to pending, todo or indeterminate. An in-progress item needs force=true.',
    input: UpdateSprintItemToolDto,
  })
  update(input: UpdateSprintItemToolDto) {
    const { project_id, item_id, ...body } = input;
    return this.items.update(project_id, item_id, body);
  }

  @McpTool({ name: 'delete_sprint_item', description: 'Delete a sprint item (its subtasks become top-level items).', input: SprintItemRefDto })
  async remove(input: SprintItemRefDto) {
    await this.items.remove(input.project_id, input.item_id);
    return { deleted: input.item_id };
  }

  @McpTool({
    name: 'claim_sprint_item',
    description:
      'Claim a sprint item for a session (status in_progress), atomically: exactly one claimer wins. With item_id (id, slug or nickname) that item, else the next claimable one (priority, then age). Refusals name the gate (DEFERRED, SUPERSEDED, DEPENDENCY_UNMET, TRACK_DEFERRED, UNPROSPECTED, FILE_LOCKED, MILESTONE_NOT_CLAIMABLE, HUMAN_ONLY) or the holder (ALREADY_CLAIMED). Prospect gate: an item declaring touches_resources waits until a planner attaches locations (prospect_sprint_item) or prospect_bypass=1. When nothing is claimable, waiting_items lists the first 20 waiting items with every gate holding each. claimant is ai (default) or human.',
    input: ClaimSprintItemToolDto,
  })
  claim(input: ClaimSprintItemToolDto) {
    return this.claims.claim(input.project_id, { session_id: input.session_id, claimant: input.claimant }, input.item_id);
  }

  @McpTool({ name: 'release_sprint_item', description: 'Give a claimed item back (pending again), only if this session holds it.', input: ReleaseSprintItemToolDto })
  release(input: ReleaseSprintItemToolDto) {
    return this.claims.release(input.project_id, input.item_id, input.session_id);
  }

  @McpTool({
    name: 'complete_sprint_item',
    description: 'Complete a sprint item (done, or provisional_complete with provisional=true). Items with required_notes=1 need notes or a task_id as evidence.',
    input: CompleteSprintItemToolDto,
  })
  complete(input: CompleteSprintItemToolDto) {
    const { project_id, item_id, ...body } = input;
    return this.transitions.complete(project_id, item_id, body);
  }

  @McpTool({
    name: 'fail_sprint_item',
    description: 'Mark a sprint item failed, with an optional reason; dependents with failure_mode stop fail too.',
    input: CloseSprintItemToolDto,
  })
  fail(input: CloseSprintItemToolDto) {
    const { project_id, item_id, ...body } = input;
    return this.transitions.fail(project_id, item_id, body);
  }

  @McpTool({ name: 'skip_sprint_item', description: 'Mark a sprint item skipped, with an optional reason.', input: CloseSprintItemToolDto })
  skip(input: CloseSprintItemToolDto) {
    const { project_id, item_id, ...body } = input;
    return this.transitions.skip(project_id, item_id, body);
  }

  @McpTool({ name: 'push_sprint_item', description: 'Push a sprint item to another version (status pushed, pushed_to set).', input: PushSprintItemToolDto })
  push(input: PushSprintItemToolDto) {
    const { project_id, item_id, ...body } = input;
    return this.transitions.push(project_id, item_id, body);
  }

  @McpTool({
    name: 'add_subtask',
    description:
      'Add a subtask under parent_id (id, slug or nickname), owned by ai (default) or human. When no subtask is active, all done/skipped makes the parent done; a failed one makes it indeterminate.',
    input: AddSubtaskToolDto,
  })
  addSubtask(input: AddSubtaskToolDto) {
    const { project_id, parent_id, ...body } = input;
    return this.items.addSubtask(project_id, parent_id, body);
  }
}
