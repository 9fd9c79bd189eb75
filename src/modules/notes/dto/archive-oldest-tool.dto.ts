import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ArchiveOldestDto } from './archive-oldest.dto';

export class ArchiveOldestToolDto extends IntersectionType(ProjectIdDto, ArchiveOldestDto) {}
