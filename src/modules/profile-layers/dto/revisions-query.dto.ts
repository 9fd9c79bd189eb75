import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryInt } from '../../../common/validation/query-int.transform';
import { MAX_REVISIONS_PAGE } from '../profile-scope.constants';

/** GET /profile-layers/{scope_id}/revisions?limit=: newest first, default 50, at most 500. */
export class RevisionsQueryDto {
  // Not IntQueryParam: `-5` is read as a number and refused by the bound. `?limit=abc` answers the type rule
  // (validateInput lets a type error outrank the bounds).
  @QueryInt({ negative: true })
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_REVISIONS_PAGE)
  limit?: number;
}
