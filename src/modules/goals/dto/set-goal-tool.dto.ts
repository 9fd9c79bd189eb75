import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SetGoalDto } from './set-goal.dto';

export class SetGoalToolDto extends IntersectionType(ProjectIdDto, SetGoalDto) {}
