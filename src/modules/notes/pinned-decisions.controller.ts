import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ArchiveOldestDto } from './dto/archive-oldest.dto';
import { DecisionIdParamsDto } from './dto/decision-id-params.dto';
import { PinDecisionDto } from './dto/pin-decision.dto';
import { PinnedListQueryDto } from './dto/pinned-list-query.dto';
import { ReplaceAllDecisionsDto } from './dto/replace-all-decisions.dto';
import { UpdatePinnedDecisionDto } from './dto/update-pinned-decision.dto';
import { PinnedDecisionView } from './pinned-decision.view';
import { PinnedDecisionsService } from './pinned-decisions.service';

@Controller('projects/:project_id/decisions-pinned')
export class PinnedDecisionsController {
  constructor(private readonly pinned: PinnedDecisionsService) {}

  @Get()
  list(@Param() params: ProjectIdDto, @Query() query: PinnedListQueryDto): Promise<PinnedDecisionView[]> {
    return this.pinned.list(params.project_id, query.include_superseded);
  }

  @Post()
  pin(@Param() params: ProjectIdDto, @Body() body: PinDecisionDto): Promise<PinnedDecisionView> {
    return this.pinned.pin(params.project_id, body);
  }

  @Post('archive-oldest')
  @HttpCode(200)
  archiveOldest(@Param() params: ProjectIdDto, @Body() body: ArchiveOldestDto) {
    return this.pinned.archiveOldest(params.project_id, body.count);
  }

  @Post('replace-all')
  @HttpCode(200)
  replaceAll(@Param() params: ProjectIdDto, @Body() body: ReplaceAllDecisionsDto): Promise<PinnedDecisionView[]> {
    return this.pinned.replaceAll(params.project_id, body.decisions);
  }

  @Patch(':decision_id')
  update(@Param() params: DecisionIdParamsDto, @Body() body: UpdatePinnedDecisionDto): Promise<PinnedDecisionView> {
    return this.pinned.update(params.project_id, params.decision_id, body);
  }

  @Delete(':decision_id')
  @HttpCode(204)
  remove(@Param() params: DecisionIdParamsDto): Promise<void> {
    return this.pinned.remove(params.project_id, params.decision_id);
  }
}
