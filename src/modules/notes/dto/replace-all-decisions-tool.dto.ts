import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ReplaceAllDecisionsDto } from './replace-all-decisions.dto';

export class ReplaceAllDecisionsToolDto extends IntersectionType(ProjectIdDto, ReplaceAllDecisionsDto) {}
