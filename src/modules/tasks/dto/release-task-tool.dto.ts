import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ReleaseTaskDto } from './release-task.dto';

export class ReleaseTaskToolDto extends IntersectionType(ProjectIdDto, ReleaseTaskDto) {}
