import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';

export class ProjectPageToolDto extends IntersectionType(ProjectIdDto, PageQueryDto) {}
