import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SetSprintDto } from './set-sprint.dto';

export class SetSprintToolDto extends IntersectionType(ProjectIdDto, SetSprintDto) {}
