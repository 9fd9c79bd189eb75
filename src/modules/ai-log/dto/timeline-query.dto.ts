import { OmitType } from '@nestjs/mapped-types';
import { IsIn, IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { AI_LOG_EVENT_KINDS, AiLogEventKind } from '../ai-log-event.entity';
import { AiLogFilterDto } from './ai-log-filter.dto';

const TIMELINE_KINDS: (AiLogEventKind | 'milestone')[] = [...AI_LOG_EVENT_KINDS, 'milestone'];

/** GET /projects/{id}/timeline: the project's events and milestone markers, newest first. */
export class TimelineQueryDto extends OmitType(AiLogFilterDto, ['kind'] as const) {
  /** An AI-log event kind, or `milestone` for the milestone markers alone. */
  @IsOptional()
  @IsIn(TIMELINE_KINDS, { message: `kind must be one of ${TIMELINE_KINDS.join(', ')}` })
  kind?: AiLogEventKind | 'milestone';

  /** Events per page: 1 to 500, default 100. */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 500, negative: true })
  limit?: number;
}
