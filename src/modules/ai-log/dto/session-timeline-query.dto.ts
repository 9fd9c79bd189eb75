import { PickType } from '@nestjs/mapped-types';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AiLogFilterDto } from './ai-log-filter.dto';
import { QueryInt } from './query-int.transform';

/**
 * GET /projects/{id}/session-timeline: the project's sessions with their activity,
 * filtered like the rest of the AI-log (one session, a time range).
 */
export class SessionTimelineQueryDto extends PickType(AiLogFilterDto, ['session_id', 'since', 'until'] as const) {
  /** Sessions to list: 1 to 100, default 20 (most recently active first). */
  @IsOptional()
  @QueryInt()
  @Max(100)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
