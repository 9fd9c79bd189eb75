import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { QueueSessionDto } from './queue-session.dto';

export class QueueSessionToolDto extends IntersectionType(ProjectIdDto, QueueSessionDto) {}
