import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { DecisionLogEntryView } from './decision-log-entry.view';
import { DecisionLogService } from './decision-log.service';
import { ConsolidationResult, DecisionConsolidationService } from './decision-consolidation.service';
import { DevlogEntryView } from './devlog-entry.view';
import { DevlogService } from './devlog.service';
import { AddDevlogDto } from './dto/add-devlog.dto';
import { LogDecisionDto } from './dto/log-decision.dto';

@Controller('projects/:project_id')
export class DecisionLogController {
  constructor(
    private readonly decisions: DecisionLogService,
    private readonly devlog: DevlogService,
    private readonly consolidation: DecisionConsolidationService,
  ) {}

  @Post('decisions')
  append(@Param() params: ProjectIdDto, @Body() body: LogDecisionDto): Promise<DecisionLogEntryView> {
    return this.decisions.append(params.project_id, body);
  }

  @Get('decisions')
  list(@Param() params: ProjectIdDto, @Query() query: PageQueryDto): Promise<DecisionLogEntryView[]> {
    return this.decisions.list(params.project_id, query);
  }

  /** De-duplicates the decision log through the configured model provider; 409 when none is configured. */
  @Post('decisions/consolidate')
  @HttpCode(200)
  consolidate(@Param() params: ProjectIdDto): Promise<ConsolidationResult> {
    return this.consolidation.consolidate(params.project_id);
  }

  @Post('devlog')
  addDevlog(@Param() params: ProjectIdDto, @Body() body: AddDevlogDto): Promise<DevlogEntryView> {
    return this.devlog.append(params.project_id, body);
  }

  @Get('devlog')
  listDevlog(@Param() params: ProjectIdDto, @Query() query: PageQueryDto): Promise<DevlogEntryView[]> {
    return this.devlog.list(params.project_id, query);
  }
}
