import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { PinnedListQueryDto } from './pinned-list-query.dto';

export class PinnedListToolDto extends IntersectionType(ProjectIdDto, PinnedListQueryDto) {}
