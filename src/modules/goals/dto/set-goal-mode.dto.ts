import { IsIn } from 'class-validator';
import { GOAL_MODES, GoalMode } from '../goals.constants';

export class SetGoalModeDto {
  @IsIn(GOAL_MODES, { message: `mode must be one of ${GOAL_MODES.join(', ')}` })
  mode!: GoalMode;
}
