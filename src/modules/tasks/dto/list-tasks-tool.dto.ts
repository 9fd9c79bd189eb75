import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ListTasksQueryDto } from './list-tasks-query.dto';

export class ListTasksToolDto extends IntersectionType(ProjectIdDto, ListTasksQueryDto) {}
