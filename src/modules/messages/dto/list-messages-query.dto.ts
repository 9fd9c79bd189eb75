import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';

/** GET /projects/{id}/messages: the project's messages, newest first. */
export class ListMessagesQueryDto {
  /** Messages per page: 1 to 500, default 50. */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 500, negative: true })
  limit?: number;

  /** next_before_seq of the previous page: only messages older than this seq. */
  @IsOptional()
  @IntQueryParam('before_seq', { min: 1 })
  before_seq?: number;
}
