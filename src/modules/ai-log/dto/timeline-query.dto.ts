import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { AI_LOG_EVENT_KINDS, AiLogEventKind } from '../ai-log-event.entity';
import { QueryInt } from './query-int.transform';

/** GET /projects/{id}/timeline: the project's events, newest first. */
export class TimelineQueryDto {
  /** Only events at or after this time (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  /** Only events before this time (ISO 8601). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;

  @IsOptional()
  @IsIn(AI_LOG_EVENT_KINDS, { message: `kind must be one of ${AI_LOG_EVENT_KINDS.join(', ')}` })
  kind?: AiLogEventKind;

  /** Events per page: 1 to 500, default 100. */
  @IsOptional()
  @QueryInt()
  @Max(500)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;

  /** next_cursor of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
