import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SearchTasksQueryDto } from './search-tasks-query.dto';

export class SearchTasksToolDto extends IntersectionType(ProjectIdDto, SearchTasksQueryDto) {}
