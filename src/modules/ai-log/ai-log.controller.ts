import { Controller, Get, Param, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { SessionActivity } from './ai-log-session-timeline.util';
import { AiLogTimelineService, TimelinePage } from './ai-log-timeline.service';
import { SessionTimelineQueryDto } from './dto/session-timeline-query.dto';
import { TimelineQueryDto } from './dto/timeline-query.dto';

@Controller('projects/:project_id')
export class AiLogController {
  constructor(private readonly timelines: AiLogTimelineService) {}

  @Get('timeline')
  timeline(@Param() params: ProjectIdDto, @Query() query: TimelineQueryDto): Promise<TimelinePage> {
    return this.timelines.timeline(params.project_id, query);
  }

  @Get('session-timeline')
  sessionTimeline(@Param() params: ProjectIdDto, @Query() query: SessionTimelineQueryDto): Promise<{ project_id: string; sessions: SessionActivity[] }> {
    return this.timelines.sessionTimeline(params.project_id, query);
  }
}
