import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SetGoalModeDto } from './set-goal-mode.dto';

export class SetGoalModeToolDto extends IntersectionType(ProjectIdDto, SetGoalModeDto) {}
