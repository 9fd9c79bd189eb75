import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from './project-id.dto';
import { SetParentDto } from './set-parent.dto';

export class SetParentToolDto extends IntersectionType(ProjectIdDto, SetParentDto) {}
