import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { QueryNumber } from './query-number.rules';

export const HITL_LIST_STATUSES = ['pending', 'answered', 'dismissed', 'all'] as const;
export type HitlListStatus = (typeof HITL_LIST_STATUSES)[number];

/** GET /hitl and GET /projects/{id}/hitl. */
export class ListHitlQueryDto {
  /** pending (default), answered, dismissed or all. */
  @IsOptional()
  @IsIn(HITL_LIST_STATUSES, { message: `status must be one of ${HITL_LIST_STATUSES.join(', ')}` })
  status?: HitlListStatus;

  /** Default 50, at most 500. */
  // Not IntQueryParam: decimals are read as numbers here, and the bounds are checked before the type (the rule
  // declared last runs first), so `?limit=abc` has always answered `limit must not be greater than 500`.
  @QueryNumber()
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(500)
  limit?: number;
}
