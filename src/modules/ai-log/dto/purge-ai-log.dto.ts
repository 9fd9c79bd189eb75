import { IsISO8601, IsOptional, IsUUID } from 'class-validator';

/** purge_ai_log: remove events older than a date. */
export class PurgeAiLogDto {
  /** Events that occurred before this time are removed (ISO 8601, not in the future). */
  @IsISO8601({ strict: true }, { message: 'before must be an ISO 8601 date-time' })
  before!: string;

  /** One project's events only; omitted: the whole workspace's. */
  @IsOptional()
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id?: string;
}
