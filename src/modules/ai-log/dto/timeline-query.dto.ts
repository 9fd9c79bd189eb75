import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { AiLogFilterDto } from './ai-log-filter.dto';

/** GET /projects/{id}/timeline: the project's events, newest first. */
export class TimelineQueryDto extends AiLogFilterDto {
  /** Events per page: 1 to 500, default 100. */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 500, negative: true })
  limit?: number;
}
