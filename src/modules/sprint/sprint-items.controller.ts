import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AddSubtaskDto } from './dto/add-subtask.dto';
import { ClaimSprintItemDto, ReleaseSprintItemDto } from './dto/claim-sprint-item.dto';
import { CreateSprintItemDto } from './dto/create-sprint-item.dto';
import { ProspectSprintItemDto } from './dto/planning.dto';
import { SprintItemRefDto } from './dto/sprint-item-ref.dto';
import { ListSprintItemsQueryDto } from './dto/sprint-queries.dto';
import { CloseSprintItemDto, CompleteSprintItemDto, PushSprintItemDto, VerifySprintItemDto } from './dto/transition.dto';
import { UpdateSprintItemDto } from './dto/update-sprint-item.dto';
import { ClaimResult, SprintClaimsService } from './sprint-claims.service';
import { SprintItemView } from './sprint-item.view';
import { SprintItemsService } from './sprint-items.service';
import { SprintPlanning } from './sprint-planning.service';
import { SprintTransitions } from './sprint-transitions.service';
import { SprintVerifications, VerificationView, VerifyResult } from './sprint-verifications.service';

/** /projects/{project_id}/sprint-items: the items, their claims and their transitions. */
@Controller('projects/:project_id/sprint-items')
export class SprintItemsController {
  constructor(
    private readonly items: SprintItemsService,
    private readonly claims: SprintClaimsService,
    private readonly transitions: SprintTransitions,
    private readonly planning: SprintPlanning,
    private readonly verifications: SprintVerifications,
  ) {}

  @Get()
  list(@Param() params: ProjectIdDto, @Query() query: ListSprintItemsQueryDto): Promise<SprintItemView[]> {
    return this.items.list(params.project_id, query);
  }

  @Post()
  create(@Param() params: ProjectIdDto, @Body() body: CreateSprintItemDto): Promise<SprintItemView> {
    return this.items.create(params.project_id, body);
  }

  /** Claims the next claimable item (priority, then age) for the session. */
  @Post('claim')
  @HttpCode(200)
  claimNext(@Param() params: ProjectIdDto, @Body() body: ClaimSprintItemDto): Promise<ClaimResult> {
    return this.claims.claim(params.project_id, body);
  }

  @Get(':item_id')
  get(@Param() params: SprintItemRefDto): Promise<SprintItemView> {
    return this.items.get(params.project_id, params.item_id);
  }

  @Patch(':item_id')
  update(@Param() params: SprintItemRefDto, @Body() body: UpdateSprintItemDto): Promise<SprintItemView> {
    return this.items.update(params.project_id, params.item_id, body);
  }

  @Delete(':item_id')
  @HttpCode(204)
  remove(@Param() params: SprintItemRefDto): Promise<void> {
    return this.items.remove(params.project_id, params.item_id);
  }

  @Post(':item_id/claim')
  @HttpCode(200)
  claim(@Param() params: SprintItemRefDto, @Body() body: ClaimSprintItemDto): Promise<ClaimResult> {
    return this.claims.claim(params.project_id, body, params.item_id);
  }

  @Post(':item_id/release')
  @HttpCode(200)
  release(@Param() params: SprintItemRefDto, @Body() body: ReleaseSprintItemDto) {
    return this.claims.release(params.project_id, params.item_id, body.session_id);
  }

  @Post(':item_id/complete')
  @HttpCode(200)
  complete(@Param() params: SprintItemRefDto, @Body() body: CompleteSprintItemDto): Promise<SprintItemView> {
    return this.transitions.complete(params.project_id, params.item_id, body);
  }

  /** A session other than the claimer records a pass, or a failure with its note (the item stays in progress). */
  @Post(':item_id/verify')
  @HttpCode(200)
  verify(@Param() params: SprintItemRefDto, @Body() body: VerifySprintItemDto): Promise<VerifyResult> {
    return this.verifications.verify(params.project_id, params.item_id, body);
  }

  @Get(':item_id/verifications')
  listVerifications(@Param() params: SprintItemRefDto): Promise<VerificationView[]> {
    return this.verifications.list(params.project_id, params.item_id);
  }

  @Post(':item_id/fail')
  @HttpCode(200)
  fail(@Param() params: SprintItemRefDto, @Body() body: CloseSprintItemDto): Promise<SprintItemView> {
    return this.transitions.fail(params.project_id, params.item_id, body);
  }

  @Post(':item_id/skip')
  @HttpCode(200)
  skip(@Param() params: SprintItemRefDto, @Body() body: CloseSprintItemDto): Promise<SprintItemView> {
    return this.transitions.skip(params.project_id, params.item_id, body);
  }

  @Post(':item_id/push')
  @HttpCode(200)
  push(@Param() params: SprintItemRefDto, @Body() body: PushSprintItemDto): Promise<SprintItemView> {
    return this.transitions.push(params.project_id, params.item_id, body);
  }

  @Post(':item_id/subtasks')
  addSubtask(@Param() params: SprintItemRefDto, @Body() body: AddSubtaskDto): Promise<SprintItemView> {
    return this.items.addSubtask(params.project_id, params.item_id, body);
  }

  @Post(':item_id/prospect')
  @HttpCode(200)
  prospect(@Param() params: SprintItemRefDto, @Body() body: ProspectSprintItemDto): Promise<SprintItemView> {
    return this.planning.prospect(params.project_id, params.item_id, body.locations);
  }
}
