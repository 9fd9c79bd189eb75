import { IsInt, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { QueryInt } from './query.transforms';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const MAX_OFFSET = 1_000_000;

/** `limit` (default 50, at most 200) and `offset` of a list, newest first. */
export class PageQueryDto {
  @OptionalField()
  @QueryInt()
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;

  @OptionalField()
  @QueryInt()
  @Min(0, { message: 'offset must not be negative' })
  @Max(MAX_OFFSET, { message: `offset must be at most ${MAX_OFFSET}` })
  @IsInt({ message: 'offset must be an integer' })
  offset?: number;
}
