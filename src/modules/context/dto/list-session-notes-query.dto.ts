import { IsOptional } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';

export class ListSessionNotesQueryDto {
  /** Default 50, at most 200. */
  @IsOptional()
  @IntQueryParam('limit', { min: 1, max: 200, negative: true })
  limit?: number;

  @IsOptional()
  @IntQueryParam('offset', { min: 0, max: 1_000_000, negative: true })
  offset?: number;
}
