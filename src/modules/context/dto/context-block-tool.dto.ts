import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ContextBlockQueryDto } from './context-block-query.dto';

export class ContextBlockToolDto extends IntersectionType(ProjectIdDto, ContextBlockQueryDto) {}
