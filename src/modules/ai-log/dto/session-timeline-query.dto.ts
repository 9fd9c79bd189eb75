import { PickType } from '@nestjs/mapped-types';
import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { AiLogFilterDto } from './ai-log-filter.dto';

/**
 * GET /projects/{id}/session-timeline: the project's sessions with their activity,
 * filtered like the rest of the AI-log (one session, a time range).
 */
export class SessionTimelineQueryDto extends PickType(AiLogFilterDto, ['session_id', 'since', 'until'] as const) {
  /** Sessions to list: 1 to 100, default 20 (most recently active first). */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 100, negative: true })
  limit?: number;
}
