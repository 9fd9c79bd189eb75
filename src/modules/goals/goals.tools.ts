import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { SetGoalModeDto } from './dto/set-goal-mode.dto';
import { SetGoalDto } from './dto/set-goal.dto';
import { SetNorthStarDto } from './dto/set-north-star.dto';
import { SetSprintDto } from './dto/set-sprint.dto';
import { GoalsService } from './goals.service';

@Injectable()
export class GoalsTools {
  constructor(private readonly goals: GoalsService) {}

  @McpTool({
    name: 'get_goal',
    annotations: READ_ONLY,
    description: "Get a project's goal (content, north_star, sprint, version, mode) with its latest tasks.",
    input: ProjectIdDto,
  })
  get(input: ProjectIdDto) {
    return this.goals.get(input.project_id);
  }

  @McpTool({
    name: 'set_goal',
    annotations: ADDITIVE,
    description:
      'Write the goal of a project: a new version, unless minor=true, which updates the current version in place. With minor=true, content made only of AUTO BLOCKS (<!-- AUTO BLOCK: name --> ... <!-- END AUTO BLOCK -->) replaces the blocks of the same name and keeps the rest.',
    params: ProjectIdDto,
    body: SetGoalDto,
  })
  set(params: ProjectIdDto, body: SetGoalDto) {
    return this.goals.set(params.project_id, body);
  }

  @McpTool({
    name: 'set_north_star',
    annotations: ADDITIVE,
    description: "Set a project's north star (long-term vision); a new goal version.",
    params: ProjectIdDto,
    body: SetNorthStarDto,
  })
  setNorthStar(params: ProjectIdDto, body: SetNorthStarDto) {
    return this.goals.setNorthStar(params.project_id, body);
  }

  @McpTool({ name: 'set_sprint', annotations: ADDITIVE, description: "Set a project's sprint label; a new goal version.", params: ProjectIdDto, body: SetSprintDto })
  setSprint(params: ProjectIdDto, body: SetSprintDto) {
    return this.goals.setSprint(params.project_id, body.sprint);
  }

  @McpTool({
    name: 'get_goal_history',
    annotations: READ_ONLY,
    description: "A project's goal versions, newest first, AUTO BLOCKS stripped (limit default 50, offset).",
    params: ProjectIdDto,
    body: PageQueryDto,
  })
  history(params: ProjectIdDto, query: PageQueryDto) {
    return this.goals.history(params.project_id, query);
  }

  @McpTool({ name: 'get_goal_mode', annotations: READ_ONLY, description: "A project's goal mode: manual or auto.", input: ProjectIdDto })
  getMode(input: ProjectIdDto) {
    return this.goals.getMode(input.project_id);
  }

  @McpTool({
    name: 'set_goal_mode',
    annotations: IDEMPOTENT_UPDATE,
    description: "Switch a project's goal mode between manual and auto.",
    params: ProjectIdDto,
    body: SetGoalModeDto,
  })
  setMode(params: ProjectIdDto, body: SetGoalModeDto) {
    return this.goals.setMode(params.project_id, body.mode);
  }
}
