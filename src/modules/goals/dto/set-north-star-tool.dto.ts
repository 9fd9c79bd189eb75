import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SetNorthStarDto } from './set-north-star.dto';

export class SetNorthStarToolDto extends IntersectionType(ProjectIdDto, SetNorthStarDto) {}
