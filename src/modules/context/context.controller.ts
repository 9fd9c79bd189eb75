import { Body, Controller, Get, Header, Param, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ContextBlockService } from './context-block.service';
import { ContextBlockQueryDto } from './dto/context-block-query.dto';
import { StartSessionDto } from './dto/start-session.dto';
import { StartSessionAnswer, StartSessionService } from './start-session.service';

@Controller('projects/:project_id')
export class ContextController {
  constructor(
    private readonly starts: StartSessionService,
    private readonly blocks: ContextBlockService,
  ) {}

  @Post('start-session')
  startSession(@Param() params: ProjectIdDto, @Body() body: StartSessionDto): Promise<StartSessionAnswer> {
    return this.starts.start(params.project_id, body, 'interactive');
  }

  @Post('start-worker-session')
  startWorkerSession(@Param() params: ProjectIdDto, @Body() body: StartSessionDto): Promise<StartSessionAnswer> {
    return this.starts.start(params.project_id, body, 'worker');
  }

  @Get('context')
  context(@Param() params: ProjectIdDto, @Query() query: ContextBlockQueryDto) {
    return this.blocks.onboarding(params.project_id, query.mode);
  }

  @Get('context-block')
  @Header('Content-Type', 'text/plain; charset=utf-8')
  contextBlock(@Param() params: ProjectIdDto, @Query() query: ContextBlockQueryDto): Promise<string> {
    return this.blocks.text(params.project_id, query.mode);
  }
}
