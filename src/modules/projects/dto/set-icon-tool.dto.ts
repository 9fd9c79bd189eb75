import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from './project-id.dto';
import { SetIconDto } from './set-icon.dto';

export class SetIconToolDto extends IntersectionType(ProjectIdDto, SetIconDto) {}
