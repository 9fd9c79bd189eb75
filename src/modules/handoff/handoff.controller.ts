import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AcceptHandoffDto } from './dto/accept-handoff.dto';
import { GenerateHandoffDto } from './dto/generate-handoff.dto';
import { ListHandoffsQueryDto } from './dto/list-handoffs-query.dto';
import { HandoffSummary } from './handoff-ledger.service';
import { LatestCorrectionQueryDto } from './dto/latest-correction-query.dto';
import { QueueSessionDto } from './dto/queue-session.dto';
import { RecordCorrectionDto } from './dto/record-correction.dto';
import { CorrectionView, HandoffCorrectionsService } from './handoff-corrections.service';
import { AcceptAnswer, HandoffAcceptService } from './handoff-accept.service';
import { HandoffAnswer, HandoffService } from './handoff.service';
import { QueuedSessionsService, QueuedSessionView } from './queued-sessions.service';

@Controller('projects/:project_id')
export class HandoffController {
  constructor(
    private readonly handoffs: HandoffService,
    private readonly acceptance: HandoffAcceptService,
    private readonly corrections: HandoffCorrectionsService,
    private readonly queue: QueuedSessionsService,
  ) {}

  @Post('handoff')
  generate(@Param() params: ProjectIdDto, @Body() body: GenerateHandoffDto): Promise<HandoffAnswer> {
    return this.handoffs.generate(params.project_id, body);
  }

  @Get('handoffs')
  list(@Param() params: ProjectIdDto, @Query() query: ListHandoffsQueryDto): Promise<HandoffSummary[]> {
    return this.handoffs.list(params.project_id, query.limit);
  }

  @Post('handoff/accept')
  @HttpCode(200)
  accept(@Param() params: ProjectIdDto, @Body() body: AcceptHandoffDto): Promise<AcceptAnswer> {
    return this.acceptance.accept(params.project_id, body);
  }

  @Post('handoff/corrections')
  recordCorrection(@Param() params: ProjectIdDto, @Body() body: RecordCorrectionDto): Promise<CorrectionView> {
    return this.corrections.record(params.project_id, body);
  }

  @Get('handoff/corrections/latest')
  latestCorrection(@Param() params: ProjectIdDto, @Query() query: LatestCorrectionQueryDto) {
    return this.corrections.latest(params.project_id, query.session_id);
  }

  @Get('handoff/planner')
  planner(@Param() params: ProjectIdDto) {
    return this.handoffs.planner(params.project_id);
  }

  @Post('queue-session')
  @HttpCode(200)
  queueSession(@Param() params: ProjectIdDto, @Body() body: QueueSessionDto) {
    return this.queue.queue(params.project_id, body.goal);
  }

  @Get('queued-session')
  queuedSession(@Param() params: ProjectIdDto): Promise<QueuedSessionView> {
    return this.queue.get(params.project_id);
  }
}
