import { PickType } from '@nestjs/mapped-types';
import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PageQueryDto } from './page-query.dto';

export const SEARCH_QUERY_MAX = 500;

/** GET /projects/{id}/tasks/search?query=... (or `q`): full-text search over descriptions, best match first; `limit` as in every list. */
export class SearchTasksQueryDto extends PickType(PageQueryDto, ['limit'] as const) {
  @OptionalField()
  @IsString({ message: 'query must be a string' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `query must be at most ${SEARCH_QUERY_MAX} characters` })
  query?: string;

  /** Short form of `query`. */
  @OptionalField()
  @IsString({ message: 'q must be a string' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `q must be at most ${SEARCH_QUERY_MAX} characters` })
  q?: string;
}
