import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_REVISIONS_PAGE } from '../profile-scope.constants';

/** GET /profile-layers/{scope_id}/revisions?limit=: newest first, default 50, at most 500. */
export class RevisionsQueryDto {
  @Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value))
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_REVISIONS_PAGE)
  limit?: number;
}
