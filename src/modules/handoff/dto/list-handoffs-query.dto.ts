import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';

/** GET /projects/{id}/handoffs: the project's handoffs, newest first. */
export class ListHandoffsQueryDto {
  /** Handoffs to list: 1 to 200, default 50. */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 200, negative: true })
  limit?: number;
}
