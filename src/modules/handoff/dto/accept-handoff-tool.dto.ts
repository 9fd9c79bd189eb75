import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { AcceptHandoffDto } from './accept-handoff.dto';

export class AcceptHandoffToolDto extends IntersectionType(ProjectIdDto, AcceptHandoffDto) {}
