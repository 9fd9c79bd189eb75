import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { CreateInsightDto } from './dto/create-insight.dto';
import { CreateNoteDto } from './dto/create-note.dto';
import { ListInsightsQueryDto } from './dto/list-insights-query.dto';
import { ListNotesQueryDto } from './dto/list-notes-query.dto';
import { NoteIdParamsDto } from './dto/note-id-params.dto';
import { UpdateNoteDto } from './dto/update-note.dto';
import { InsightView } from './insight.view';
import { InsightsService } from './insights.service';
import { ProjectNoteView } from './project-note.view';
import { ProjectNotesService } from './project-notes.service';

@Controller('projects/:project_id')
export class NotesController {
  constructor(
    private readonly notes: ProjectNotesService,
    private readonly insights: InsightsService,
  ) {}

  @Get('notes')
  list(@Param() params: ProjectIdDto, @Query() query: ListNotesQueryDto): Promise<ProjectNoteView[]> {
    return this.notes.list(params.project_id, query);
  }

  @Post('notes')
  create(@Param() params: ProjectIdDto, @Body() body: CreateNoteDto): Promise<ProjectNoteView> {
    return this.notes.create(params.project_id, body);
  }

  @Patch('notes/:note_id')
  update(@Param() params: NoteIdParamsDto, @Body() body: UpdateNoteDto): Promise<ProjectNoteView> {
    return this.notes.update(params.project_id, params.note_id, body);
  }

  @Delete('notes/:note_id')
  @HttpCode(204)
  remove(@Param() params: NoteIdParamsDto): Promise<void> {
    return this.notes.remove(params.project_id, params.note_id);
  }

  @Get('insights')
  listInsights(@Param() params: ProjectIdDto, @Query() query: ListInsightsQueryDto): Promise<InsightView[]> {
    return this.insights.list(params.project_id, query);
  }

  @Post('insights')
  createInsight(@Param() params: ProjectIdDto, @Body() body: CreateInsightDto): Promise<InsightView> {
    return this.insights.create(params.project_id, body);
  }
}
