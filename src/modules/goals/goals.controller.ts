import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { SetGoalModeDto } from './dto/set-goal-mode.dto';
import { SetGoalDto } from './dto/set-goal.dto';
import { SetNorthStarDto } from './dto/set-north-star.dto';
import { SetSprintDto } from './dto/set-sprint.dto';
import { GoalVersionView, GoalView, GoalWithTasksView } from './goal.view';
import { GoalsService } from './goals.service';

@Controller('projects/:project_id')
export class GoalsController {
  constructor(private readonly goals: GoalsService) {}

  @Get('goal')
  get(@Param() params: ProjectIdDto): Promise<GoalWithTasksView> {
    return this.goals.get(params.project_id);
  }

  @Post('goal')
  @HttpCode(200)
  set(@Param() params: ProjectIdDto, @Body() body: SetGoalDto): Promise<GoalView> {
    return this.goals.set(params.project_id, body);
  }

  @Post('goal/north-star')
  @HttpCode(200)
  setNorthStar(@Param() params: ProjectIdDto, @Body() body: SetNorthStarDto): Promise<GoalView> {
    return this.goals.setNorthStar(params.project_id, body);
  }

  @Post('goal/sprint')
  @HttpCode(200)
  setSprint(@Param() params: ProjectIdDto, @Body() body: SetSprintDto): Promise<GoalView> {
    return this.goals.setSprint(params.project_id, body.sprint);
  }

  @Get('goal-history')
  history(@Param() params: ProjectIdDto, @Query() query: PageQueryDto): Promise<GoalVersionView[]> {
    return this.goals.history(params.project_id, query);
  }

  @Get('goal-mode')
  getMode(@Param() params: ProjectIdDto) {
    return this.goals.getMode(params.project_id);
  }

  @Patch('goal-mode')
  setMode(@Param() params: ProjectIdDto, @Body() body: SetGoalModeDto) {
    return this.goals.setMode(params.project_id, body.mode);
  }
}
