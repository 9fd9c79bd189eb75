import { IsIn, IsInt, IsISO8601, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { AI_LOG_EVENT_KINDS, AiLogEventKind } from '../ai-log-event.entity';

/** export_ai_log: the log of a time range as JSON lines, oldest first. */
export class ExportAiLogDto {
  /** One project's events; omitted: every event of the workspace. */
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id?: string;

  /** Start of the range, inclusive (ISO 8601); omitted: from the first event. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  /** End of the range, exclusive (ISO 8601); omitted: up to now. */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @IsOptional()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;

  @IsOptional()
  @IsIn(AI_LOG_EVENT_KINDS, { message: `kind must be one of ${AI_LOG_EVENT_KINDS.join(', ')}` })
  kind?: AiLogEventKind;

  /** Lines per answer: 1 to 10000, default 1000; next_cursor continues. */
  @IsOptional()
  @Max(10_000)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
