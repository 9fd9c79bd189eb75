import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { StartSessionDto } from './start-session.dto';

export class StartSessionToolDto extends IntersectionType(ProjectIdDto, StartSessionDto) {}
