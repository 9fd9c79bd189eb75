import { IsInt, IsISO8601, IsOptional, IsUUID, Max, Min } from 'class-validator';
import { QueryInt } from './query-int.transform';

/** GET /projects/{id}/session-timeline: the project's sessions with their activity. */
export class SessionTimelineQueryDto {
  /** One session of the project only. */
  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  /** Sessions to list: 1 to 100, default 20 (most recently active first). */
  @IsOptional()
  @QueryInt()
  @Max(100)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
