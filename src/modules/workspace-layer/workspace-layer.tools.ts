import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { CreateNoteDto } from '../notes/dto/create-note.dto';
import { UpdateNoteDto } from '../notes/dto/update-note.dto';
import { CompleteWorkspaceItemDto } from './dto/complete-workspace-item.dto';
import { CreateWorkspaceItemDto } from './dto/create-workspace-item.dto';
import { ListWorkspaceNotesQueryDto } from './dto/list-workspace-notes-query.dto';
import { MoveWorkspaceNoteDto } from './dto/move-workspace-note.dto';
import { SetWorkspaceDecisionDto } from './dto/set-workspace-decision.dto';
import { UpdateWorkspaceItemDto } from './dto/update-workspace-item.dto';
import { UpdateWorkspaceSettingsDto } from './dto/update-workspace-settings.dto';
import { WorkspaceDecisionIdDto } from './dto/workspace-decision-id.dto';
import { WorkspaceDecisionsQueryDto } from './dto/workspace-decisions-query.dto';
import { WorkspaceItemIdDto } from './dto/workspace-item-id.dto';
import { WorkspaceItemsQueryDto } from './dto/workspace-items-query.dto';
import { WorkspaceNoteIdDto } from './dto/workspace-note-id.dto';
import { WorkspaceDecisionsService } from './workspace-decisions.service';
import { WorkspaceNotesService } from './workspace-notes.service';
import { WorkspaceSettingsService } from './workspace-settings.service';
import { WorkspaceSprintItemsService } from './workspace-sprint-items.service';

@Injectable()
export class WorkspaceLayerTools {
  constructor(
    private readonly notes: WorkspaceNotesService,
    private readonly decisions: WorkspaceDecisionsService,
    private readonly items: WorkspaceSprintItemsService,
    private readonly settings: WorkspaceSettingsService,
  ) {}

  @McpTool({
    name: 'add_workspace_note',
    annotations: ADDITIVE,
    description: "Add a workspace note (title, body, tags): it heads every project's context block.",
    input: CreateNoteDto,
  })
  addNote(input: CreateNoteDto) {
    return this.notes.create(input);
  }

  @McpTool({
    name: 'get_workspace_notes',
    annotations: READ_ONLY,
    description: 'Workspace notes, newest first; tag (exact) and substring (of title or body) narrow them.',
    input: ListWorkspaceNotesQueryDto,
  })
  getNotes(input: ListWorkspaceNotesQueryDto) {
    return this.notes.list(input);
  }

  @McpTool({
    name: 'update_workspace_note',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Change the title, body and/or tags of a workspace note.',
    params: WorkspaceNoteIdDto,
    body: UpdateNoteDto,
  })
  updateNote(params: WorkspaceNoteIdDto, body: UpdateNoteDto) {
    return this.notes.update(params.note_id, body);
  }

  @McpTool({ name: 'delete_workspace_note', annotations: DESTRUCTIVE, description: 'Delete a workspace note.', input: WorkspaceNoteIdDto })
  async deleteNote(input: WorkspaceNoteIdDto) {
    await this.notes.remove(input.note_id);
    return { deleted: input.note_id };
  }

  @McpTool({
    name: 'move_workspace_note',
    annotations: DESTRUCTIVE,
    description: 'Move a workspace note into a project: it becomes a note of that project.',
    params: WorkspaceNoteIdDto,
    body: MoveWorkspaceNoteDto,
  })
  moveNote(params: WorkspaceNoteIdDto, body: MoveWorkspaceNoteDto) {
    return this.notes.moveToProject(params.note_id, body.project_id);
  }

  @McpTool({
    name: 'set_workspace_decision',
    annotations: ADDITIVE,
    description: "Set a workspace decision: it heads every project's context block. An active decision with the same title (or the one named by supersedes) is superseded.",
    input: SetWorkspaceDecisionDto,
  })
  setDecision(input: SetWorkspaceDecisionDto) {
    return this.decisions.set(input);
  }

  @McpTool({
    name: 'get_workspace_decisions',
    annotations: READ_ONLY,
    description: 'Active workspace decisions, newest first; include_superseded=true lists their history too.',
    input: WorkspaceDecisionsQueryDto,
  })
  getDecisions(input: WorkspaceDecisionsQueryDto) {
    return this.decisions.list(input.include_superseded);
  }

  @McpTool({ name: 'delete_workspace_decision', annotations: DESTRUCTIVE, description: 'Delete a workspace decision.', input: WorkspaceDecisionIdDto })
  async deleteDecision(input: WorkspaceDecisionIdDto) {
    await this.decisions.remove(input.decision_id);
    return { deleted: input.decision_id };
  }

  @McpTool({
    name: 'add_workspace_sprint_item',
    annotations: ADDITIVE,
    description: 'Add a workspace (cross-project) sprint item, optionally in a group.',
    input: CreateWorkspaceItemDto,
  })
  addItem(input: CreateWorkspaceItemDto) {
    return this.items.create(input);
  }

  @McpTool({
    name: 'get_workspace_sprint_items',
    annotations: READ_ONLY,
    description: 'Workspace sprint items grouped by group (items without a group last); optional status.',
    input: WorkspaceItemsQueryDto,
  })
  getItems(input: WorkspaceItemsQueryDto) {
    return this.items.list(input);
  }

  @McpTool({
    name: 'update_workspace_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Change a workspace sprint item (title, group, open status, notes, human_id).',
    params: WorkspaceItemIdDto,
    body: UpdateWorkspaceItemDto,
  })
  updateItem(params: WorkspaceItemIdDto, body: UpdateWorkspaceItemDto) {
    return this.items.update(params.item_id, body);
  }

  @McpTool({
    name: 'complete_workspace_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Mark a workspace sprint item done (stamps completed_at), optionally with notes.',
    params: WorkspaceItemIdDto,
    body: CompleteWorkspaceItemDto,
  })
  completeItem(params: WorkspaceItemIdDto, body: CompleteWorkspaceItemDto) {
    return this.items.complete(params.item_id, body.notes);
  }

  @McpTool({ name: 'get_workspace_settings', annotations: READ_ONLY, description: 'The workspace settings (name, timezone, context_notes_limit, context_decisions_limit).' })
  getSettings() {
    return this.settings.get();
  }

  @McpTool({
    name: 'update_workspace_settings',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Change some workspace settings; the fields not given keep their value.',
    input: UpdateWorkspaceSettingsDto,
  })
  updateSettings(input: UpdateWorkspaceSettingsDto) {
    return this.settings.update(input);
  }
}
