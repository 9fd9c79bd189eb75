import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryInt } from '../../../common/validation/query-int.transform';
import { MAX_REVISIONS_PAGE } from '../profile-scope.constants';

/** GET /profile-layers/{scope_id}/revisions?limit=: newest first, default 50, at most 500. */
export class RevisionsQueryDto {
  // Not IntQueryParam: class-validator runs the rule declared last first, so here the bounds are checked
  // before the type and `?limit=abc` has always answered `limit must not be greater than 500`.
  @QueryInt({ negative: true })
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_REVISIONS_PAGE)
  limit?: number;
}
