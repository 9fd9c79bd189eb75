import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;
export const MAX_OFFSET = 1_000_000;

/** `limit` (default 50, at most 200) and `offset` of a list, newest first. */
export class PageQueryDto {
  @OptionalField()
  @IntQueryParam('limit', {
    min: 1,
    max: MAX_PAGE_SIZE,
    messages: { min: 'limit must be at least 1', max: `limit must be at most ${MAX_PAGE_SIZE}` },
  })
  limit?: number;

  @OptionalField()
  @IntQueryParam('offset', {
    min: 0,
    max: MAX_OFFSET,
    messages: { min: 'offset must not be negative', max: `offset must be at most ${MAX_OFFSET}` },
  })
  offset?: number;
}
