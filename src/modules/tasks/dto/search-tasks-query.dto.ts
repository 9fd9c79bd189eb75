import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { MAX_PAGE_SIZE } from './page-query.dto';
import { QueryInt } from './query.transforms';

export const SEARCH_QUERY_MAX = 500;

/** GET /projects/{id}/tasks/search?query=... (or `q`): full-text search over descriptions, best match first. */
export class SearchTasksQueryDto {
  @OptionalField()
  @IsString({ message: 'query must be a string' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `query must be at most ${SEARCH_QUERY_MAX} characters` })
  query?: string;

  /** Short form of `query`. */
  @OptionalField()
  @IsString({ message: 'q must be a string' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `q must be at most ${SEARCH_QUERY_MAX} characters` })
  q?: string;

  @OptionalField()
  @QueryInt()
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
