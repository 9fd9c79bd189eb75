import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { SessionIdDto } from '../sessions/dto/session-id.dto';
import { AddSessionNoteDto } from './dto/add-session-note.dto';
import { ListSessionNotesQueryDto } from './dto/list-session-notes-query.dto';
import { SessionNoteView } from './session-note.view';
import { SessionNotesService } from './session-notes.service';

@Controller('sessions/:session_id/notes')
export class SessionNotesController {
  constructor(private readonly notes: SessionNotesService) {}

  @Get()
  list(@Param() params: SessionIdDto, @Query() query: ListSessionNotesQueryDto): Promise<SessionNoteView[]> {
    return this.notes.list(params.session_id, query.limit, query.offset);
  }

  @Post()
  add(@Param() params: SessionIdDto, @Body() body: AddSessionNoteDto): Promise<SessionNoteView> {
    return this.notes.add(params.session_id, body.body);
  }
}
