import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ForceReleaseFileDto } from './dto/force-release-file.dto';
import { ListSessionsQueryDto } from './dto/list-sessions-query.dto';
import { RegisterSessionDto } from './dto/register-session.dto';
import { SessionIdDto } from './dto/session-id.dto';
import { UpdateSessionDto } from './dto/update-session.dto';
import { FileLocksService, ForcedRelease, LockView } from './file-locks.service';
import { SessionView } from './session.view';
import { CloseResult, SessionsService } from './sessions.service';

@Controller()
export class SessionsController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly locks: FileLocksService,
  ) {}

  @Post('sessions/register')
  register(@Body() body: RegisterSessionDto): Promise<SessionView> {
    return this.sessions.register(body);
  }

  @Get('sessions/:session_id')
  get(@Param() params: SessionIdDto): Promise<SessionView> {
    return this.sessions.get(params.session_id);
  }

  @Post('sessions/:session_id/heartbeat')
  @HttpCode(200)
  heartbeat(@Param() params: SessionIdDto) {
    return this.sessions.heartbeat(params.session_id);
  }

  @Post('sessions/:session_id/close')
  @HttpCode(200)
  close(@Param() params: SessionIdDto): Promise<CloseResult> {
    return this.sessions.close(params.session_id);
  }

  @Patch('sessions/:session_id')
  update(@Param() params: SessionIdDto, @Body() body: UpdateSessionDto): Promise<SessionView> {
    return this.sessions.update(params.session_id, body);
  }

  @Get('projects/:project_id/sessions')
  listActive(@Param() params: ProjectIdDto, @Query() query: ListSessionsQueryDto): Promise<SessionView[]> {
    return this.sessions.listActive(params.project_id, query.include_closed);
  }

  @Get('projects/:project_id/file-locks')
  fileLocks(@Param() params: ProjectIdDto): Promise<LockView[]> {
    return this.locks.list(params.project_id);
  }

  /** A person frees a file whatever session holds it (the dashboard's force-release). */
  @Post('projects/:project_id/file-locks/release')
  @HttpCode(200)
  forceRelease(@Param() params: ProjectIdDto, @Body() body: ForceReleaseFileDto): Promise<ForcedRelease> {
    return this.locks.forceRelease(params.project_id, body.file_path);
  }
}
