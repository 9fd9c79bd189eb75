import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { AI_LOG_EVENT_KINDS, AiLogEventKind } from '../ai-log-event.entity';

/** The filters every AI-log reading shares: a time range, a session, a kind, and a page cursor. */
export class AiLogFilterDto {
  /** Only events at or after this time (ISO 8601, inclusive). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'since must be an ISO 8601 date-time' })
  since?: string;

  /** Only events before this time (ISO 8601, exclusive). */
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'until must be an ISO 8601 date-time' })
  until?: string;

  @IsOptional()
  @Uuid()
  session_id?: string;

  @IsOptional()
  @IsIn(AI_LOG_EVENT_KINDS, { message: `kind must be one of ${AI_LOG_EVENT_KINDS.join(', ')}` })
  kind?: AiLogEventKind;

  /** next_cursor of the previous page. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
