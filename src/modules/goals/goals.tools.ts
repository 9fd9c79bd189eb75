import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { GoalHistoryToolDto } from './dto/goal-history-tool.dto';
import { SetGoalModeToolDto } from './dto/set-goal-mode-tool.dto';
import { SetGoalToolDto } from './dto/set-goal-tool.dto';
import { SetNorthStarToolDto } from './dto/set-north-star-tool.dto';
import { SetSprintToolDto } from './dto/set-sprint-tool.dto';
import { GoalsService } from './goals.service';

@Injectable()
export class GoalsTools {
  constructor(private readonly goals: GoalsService) {}

  @McpTool({ name: 'get_goal', description: "Get a project's goal (content, north_star, sprint, version, mode) with its latest tasks.", input: ProjectIdDto })
  get(input: ProjectIdDto) {
    return this.goals.get(input.project_id);
  }

  @McpTool({
    name: 'set_goal',
    description:
      'Write the goal of a project: a new version, unless minor=true, which updates the current version in place. With minor=true, content made only of AUTO BLOCKS (<!-- AUTO BLOCK: name --> ... <!-- END AUTO BLOCK -->) replaces the blocks of the same name and keeps the rest.',
    input: SetGoalToolDto,
  })
  set(input: SetGoalToolDto) {
    return this.goals.set(input.project_id, input);
  }

  @McpTool({ name: 'set_north_star', description: "Set a project's north star (long-term vision); a new goal version.", input: SetNorthStarToolDto })
  setNorthStar(input: SetNorthStarToolDto) {
    return this.goals.setNorthStar(input.project_id, input);
  }

  @McpTool({ name: 'set_sprint', description: "Set a project's sprint label; a new goal version.", input: SetSprintToolDto })
  setSprint(input: SetSprintToolDto) {
    return this.goals.setSprint(input.project_id, input.sprint);
  }

  @McpTool({ name: 'get_goal_history', description: "A project's goal versions, newest first, AUTO BLOCKS stripped (limit default 50, offset).", input: GoalHistoryToolDto })
  history(input: GoalHistoryToolDto) {
    return this.goals.history(input.project_id, input);
  }

  @McpTool({ name: 'get_goal_mode', description: "A project's goal mode: manual or auto.", input: ProjectIdDto })
  getMode(input: ProjectIdDto) {
    return this.goals.getMode(input.project_id);
  }

  @McpTool({ name: 'set_goal_mode', description: "Switch a project's goal mode between manual and auto.", input: SetGoalModeToolDto })
  setMode(input: SetGoalModeToolDto) {
    return this.goals.setMode(input.project_id, input.mode);
  }
}
