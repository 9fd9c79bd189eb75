import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { AiLogFilterDto } from './ai-log-filter.dto';
import { QueryInt } from './query-int.transform';

/** GET /projects/{id}/timeline: the project's events, newest first. */
export class TimelineQueryDto extends AiLogFilterDto {
  /** Events per page: 1 to 500, default 100. */
  @IsOptional()
  @QueryInt()
  @Max(500)
  @Min(1)
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
