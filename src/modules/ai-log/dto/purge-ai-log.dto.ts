import { IsISO8601, IsOptional } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** purge_ai_log: remove events older than a date. */
export class PurgeAiLogDto {
  /** Events that occurred before this time are removed (ISO 8601, not in the future). */
  @IsISO8601({ strict: true }, { message: 'before must be an ISO 8601 date-time' })
  before!: string;

  /** One project's events only; omitted: the whole workspace's. */
  @IsOptional()
  @Uuid()
  project_id?: string;
}
