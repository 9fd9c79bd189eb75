import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { SessionTimelineQueryDto } from './session-timeline-query.dto';

export class SessionTimelineToolDto extends IntersectionType(ProjectIdDto, SessionTimelineQueryDto) {}
