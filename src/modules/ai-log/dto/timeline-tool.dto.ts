import { IntersectionType } from '@nestjs/mapped-types';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { TimelineQueryDto } from './timeline-query.dto';

export class TimelineToolDto extends IntersectionType(ProjectIdDto, TimelineQueryDto) {}
