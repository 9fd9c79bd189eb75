import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { CreateNoteDto } from '../notes/dto/create-note.dto';
import { CompleteWorkspaceItemToolDto } from './dto/complete-workspace-item-tool.dto';
import { CreateWorkspaceItemDto } from './dto/create-workspace-item.dto';
import { ListWorkspaceNotesQueryDto } from './dto/list-workspace-notes-query.dto';
import { MoveWorkspaceNoteToolDto } from './dto/move-workspace-note-tool.dto';
import { SetWorkspaceDecisionDto } from './dto/set-workspace-decision.dto';
import { UpdateWorkspaceItemToolDto } from './dto/update-workspace-item-tool.dto';
import { UpdateWorkspaceNoteToolDto } from './dto/update-workspace-note-tool.dto';
import { UpdateWorkspaceSettingsDto } from './dto/update-workspace-settings.dto';
import { WorkspaceDecisionIdDto } from './dto/workspace-decision-id.dto';
import { WorkspaceDecisionsQueryDto } from './dto/workspace-decisions-query.dto';
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

  @McpTool({ name: 'add_workspace_note', description: "Add a workspace note (title, body, tags): it heads every project's context block.", input: CreateNoteDto })
  addNote(input: CreateNoteDto) {
    return this.notes.create(input);
  }

  @McpTool({
    name: 'get_workspace_notes',
    description: 'Workspace notes, newest first; tag (exact) and substring (of title or body) narrow them.',
    input: ListWorkspaceNotesQueryDto,
  })
  getNotes(input: ListWorkspaceNotesQueryDto) {
    return this.notes.list(input);
  }

  @McpTool({ name: 'update_workspace_note', description: 'Change the title, body and/or tags of a workspace note.', input: UpdateWorkspaceNoteToolDto })
  updateNote(input: UpdateWorkspaceNoteToolDto) {
    return this.notes.update(input.note_id, input);
  }

  @McpTool({ name: 'delete_workspace_note', description: 'Delete a workspace note.', input: WorkspaceNoteIdDto })
  async deleteNote(input: WorkspaceNoteIdDto) {
    await this.notes.remove(input.note_id);
    return { deleted: input.note_id };
  }

  @McpTool({ name: 'move_workspace_note', description: 'Move a workspace note into a project: it becomes a note of that project.', input: MoveWorkspaceNoteToolDto })
  moveNote(input: MoveWorkspaceNoteToolDto) {
    return this.notes.moveToProject(input.note_id, input.project_id);
  }

  @McpTool({
    name: 'set_workspace_decision',
    description: "Set a workspace decision: it heads every project's context block. An active decision with the same title (or the one named by supersedes) is superseded.",
    input: SetWorkspaceDecisionDto,
  })
  setDecision(input: SetWorkspaceDecisionDto) {
    return this.decisions.set(input);
  }

  @McpTool({
    name: 'get_workspace_decisions',
    description: 'Active workspace decisions, newest first; include_superseded=true lists their history too.',
    input: WorkspaceDecisionsQueryDto,
  })
  getDecisions(input: WorkspaceDecisionsQueryDto) {
    return this.decisions.list(input.include_superseded);
  }

  @McpTool({ name: 'delete_workspace_decision', description: 'Delete a workspace decision.', input: WorkspaceDecisionIdDto })
  async deleteDecision(input: WorkspaceDecisionIdDto) {
    await this.decisions.remove(input.decision_id);
    return { deleted: input.decision_id };
  }

  @McpTool({ name: 'add_workspace_sprint_item', description: 'Add a workspace (cross-project) sprint item, optionally in a group.', input: CreateWorkspaceItemDto })
  addItem(input: CreateWorkspaceItemDto) {
    return this.items.create(input);
  }

  @McpTool({
    name: 'get_workspace_sprint_items',
    description: 'Workspace sprint items grouped by group (items without a group last); optional status.',
    input: WorkspaceItemsQueryDto,
  })
  getItems(input: WorkspaceItemsQueryDto) {
    return this.items.list(input);
  }

  @McpTool({ name: 'update_workspace_sprint_item', description: 'Change a workspace sprint item (title, group, open status, notes, human_id).', input: UpdateWorkspaceItemToolDto })
  updateItem(input: UpdateWorkspaceItemToolDto) {
    return this.items.update(input.item_id, input);
  }

  @McpTool({
    name: 'complete_workspace_sprint_item',
    description: 'Mark a workspace sprint item done (stamps completed_at), optionally with notes.',
    input: CompleteWorkspaceItemToolDto,
  })
  completeItem(input: CompleteWorkspaceItemToolDto) {
    return this.items.complete(input.item_id, input.notes);
  }

  @McpTool({ name: 'get_workspace_settings', description: 'The workspace settings (name, timezone, context_notes_limit, context_decisions_limit).' })
  getSettings() {
    return this.settings.get();
  }

  @McpTool({ name: 'update_workspace_settings', description: 'Change some workspace settings; the fields not given keep their value.', input: UpdateWorkspaceSettingsDto })
  updateSettings(input: UpdateWorkspaceSettingsDto) {
    return this.settings.update(input);
  }
}
