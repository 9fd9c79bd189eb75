import { Body, Controller, Get, Header, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { ProjectTokenRoute } from '../../common/auth/project-token.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { TaskView } from '../tasks/task.view';
import { FrameworkEventDto } from './dto/framework-event.dto';
import { ProjectSessionParamsDto } from './dto/project-session-params.dto';
import { RewindQueryDto } from './dto/rewind-query.dto';
import { RewindTokenDto } from './dto/rewind-token.dto';
import { StatsQueryDto } from './dto/stats-query.dto';
import { FrameworkEventsService } from './framework-events.service';
import { LiveTasksService } from './live-tasks.service';
import { ProjectStatsService } from './project-stats.service';
import { ProjectTokenGuard, ProjectTokenRequest } from './project-token.guard';
import { IssuedRewindToken, IssuedToken, ProjectTokensService } from './project-tokens.service';
import { RewindLinksService } from './rewind-links.service';
import { Answers, EVENT_STREAM } from '../../common/http/answers.decorator';

/** A project over time: its figures, what is alive now, its past state, its live task log and inbound events. */
@Controller('projects/:project_id')
export class TimeController {
  constructor(
    private readonly stats: ProjectStatsService,
    private readonly rewindLinks: RewindLinksService,
    private readonly tokens: ProjectTokensService,
    private readonly events: FrameworkEventsService,
    private readonly live: LiveTasksService,
  ) {}

  @Get('stats')
  getStats(@Param() params: ProjectIdDto, @Query() query: StatsQueryDto) {
    return this.stats.stats(params.project_id, query.days);
  }

  @Get('runtime_diagnostics')
  getRuntimeDiagnostics(@Param() params: ProjectIdDto) {
    return this.stats.runtimeDiagnostics(params.project_id);
  }

  @Get('rewind')
  @ProjectTokenRoute('rewind')
  @UseGuards(ProjectTokenGuard)
  getRewind(@Param() params: ProjectIdDto, @Query() query: RewindQueryDto, @Req() req: ProjectTokenRequest) {
    return this.rewindLinks.view(params.project_id, query.at, req.rewindPinnedAt);
  }

  @Post('rewind-token')
  @Header('cache-control', 'no-store')
  createRewindToken(@Param() params: ProjectIdDto, @Body() body: RewindTokenDto): Promise<IssuedRewindToken> {
    return this.rewindLinks.mint(params.project_id, body);
  }

  @Get('webhook-token')
  @Header('cache-control', 'no-store')
  getWebhookToken(@Param() params: ProjectIdDto): Promise<IssuedToken> {
    return this.tokens.issue(params.project_id, 'webhook');
  }

  @Post('events')
  @ProjectTokenRoute('webhook')
  @UseGuards(ProjectTokenGuard)
  recordEvent(@Param() params: ProjectIdDto, @Body() body: FrameworkEventDto): Promise<TaskView> {
    return this.events.record(params.project_id, body);
  }

  @Get('sessions/:session_id/tasks/live')
  @Answers(EVENT_STREAM)
  streamTasks(@Param() params: ProjectSessionParamsDto, @Res() res: Response): Promise<void> {
    return this.live.stream(params.project_id, params.session_id, res);
  }
}
