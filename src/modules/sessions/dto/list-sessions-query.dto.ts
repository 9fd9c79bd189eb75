import { IsOptional } from 'class-validator';
import { BoolQueryParam } from '../../../common/validation/bool-query-param.decorator';

/** GET /projects/{id}/sessions. */
export class ListSessionsQueryDto {
  /** Also the most recently closed sessions (up to 50), after the active ones. */
  @IsOptional()
  @BoolQueryParam('include_closed')
  include_closed?: boolean;
}
