import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateNoteDto } from '../notes/dto/create-note.dto';
import { UpdateNoteDto } from '../notes/dto/update-note.dto';
import { ProjectNoteView } from '../notes/project-note.view';
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
import { WorkspaceDecisionView } from './workspace-decision.view';
import { WorkspaceDecisionsService } from './workspace-decisions.service';
import { WorkspaceNoteView } from './workspace-note.view';
import { WorkspaceNotesService } from './workspace-notes.service';
import { WorkspaceSettings } from './workspace-layer.constants';
import { WorkspaceSettingsService } from './workspace-settings.service';
import { WorkspaceSprintItemView } from './workspace-sprint-item.view';
import { WorkspaceSprintItemsService } from './workspace-sprint-items.service';

@Controller('workspace')
export class WorkspaceLayerController {
  constructor(
    private readonly notes: WorkspaceNotesService,
    private readonly decisions: WorkspaceDecisionsService,
    private readonly items: WorkspaceSprintItemsService,
    private readonly settings: WorkspaceSettingsService,
  ) {}

  @Get('notes')
  listNotes(@Query() query: ListWorkspaceNotesQueryDto): Promise<WorkspaceNoteView[]> {
    return this.notes.list(query);
  }

  @Post('notes')
  addNote(@Body() body: CreateNoteDto): Promise<WorkspaceNoteView> {
    return this.notes.create(body);
  }

  @Patch('notes/:note_id')
  updateNote(@Param() params: WorkspaceNoteIdDto, @Body() body: UpdateNoteDto): Promise<WorkspaceNoteView> {
    return this.notes.update(params.note_id, body);
  }

  @Delete('notes/:note_id')
  @HttpCode(204)
  deleteNote(@Param() params: WorkspaceNoteIdDto): Promise<void> {
    return this.notes.remove(params.note_id);
  }

  @Post('notes/:note_id/move')
  @HttpCode(200)
  moveNote(@Param() params: WorkspaceNoteIdDto, @Body() body: MoveWorkspaceNoteDto): Promise<ProjectNoteView> {
    return this.notes.moveToProject(params.note_id, body.project_id);
  }

  @Get('decisions')
  listDecisions(@Query() query: WorkspaceDecisionsQueryDto): Promise<WorkspaceDecisionView[]> {
    return this.decisions.list(query.include_superseded);
  }

  @Post('decisions')
  setDecision(@Body() body: SetWorkspaceDecisionDto): Promise<WorkspaceDecisionView> {
    return this.decisions.set(body);
  }

  @Delete('decisions/:decision_id')
  @HttpCode(204)
  deleteDecision(@Param() params: WorkspaceDecisionIdDto): Promise<void> {
    return this.decisions.remove(params.decision_id);
  }

  @Get('sprint-items')
  listItems(@Query() query: WorkspaceItemsQueryDto) {
    return this.items.list(query);
  }

  @Post('sprint-items')
  addItem(@Body() body: CreateWorkspaceItemDto): Promise<WorkspaceSprintItemView> {
    return this.items.create(body);
  }

  @Patch('sprint-items/:item_id')
  updateItem(@Param() params: WorkspaceItemIdDto, @Body() body: UpdateWorkspaceItemDto): Promise<WorkspaceSprintItemView> {
    return this.items.update(params.item_id, body);
  }

  @Post('sprint-items/:item_id/complete')
  @HttpCode(200)
  completeItem(@Param() params: WorkspaceItemIdDto, @Body() body: CompleteWorkspaceItemDto): Promise<WorkspaceSprintItemView> {
    return this.items.complete(params.item_id, body.notes);
  }

  @Delete('sprint-items/:item_id')
  @HttpCode(204)
  deleteItem(@Param() params: WorkspaceItemIdDto): Promise<void> {
    return this.items.remove(params.item_id);
  }

  @Get('settings')
  getSettings(): Promise<WorkspaceSettings> {
    return this.settings.get();
  }

  @Patch('settings')
  updateSettings(@Body() body: UpdateWorkspaceSettingsDto): Promise<WorkspaceSettings> {
    return this.settings.update(body);
  }
}
