import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsString, MaxLength } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { SEARCH_KINDS, SEARCH_MAX_LIMIT, SEARCH_QUERY_MAX, SearchKind } from '../search.constants';

/** GET /projects/{id}/search?q=...&limit=...&kinds=note,decision: the project's records, best match first. */
export class SearchQueryDto {
  @IsString({ message: 'q must be a string' })
  @MaxLength(SEARCH_QUERY_MAX, { message: `q must be at most ${SEARCH_QUERY_MAX} characters` })
  q!: string;

  @OptionalField()
  @IntQueryParam('limit', { min: 1, max: SEARCH_MAX_LIMIT, messages: { min: 'limit must be at least 1', max: `limit must be at most ${SEARCH_MAX_LIMIT}` } })
  limit?: number;

  /** Comma-separated in a query string (`kinds=note,task`), an array in a tool call. */
  @OptionalField()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.split(',').map((k) => k.trim()) : value))
  @IsArray({ message: 'kinds must be a list of kinds (comma-separated in a query string)' })
  @ArrayMaxSize(SEARCH_KINDS.length, { message: `kinds must name at most ${SEARCH_KINDS.length} kinds` })
  @IsIn(SEARCH_KINDS, { each: true, message: `kinds must name only ${SEARCH_KINDS.join(', ')}` })
  kinds?: SearchKind[];
}
