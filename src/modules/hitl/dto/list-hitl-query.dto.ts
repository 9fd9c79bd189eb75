import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

export const HITL_LIST_STATUSES = ['pending', 'answered', 'dismissed', 'all'] as const;
export type HitlListStatus = (typeof HITL_LIST_STATUSES)[number];

/** GET /hitl and GET /projects/{id}/hitl. */
export class ListHitlQueryDto {
  /** pending (default), answered, dismissed or all. */
  @IsOptional()
  @IsIn(HITL_LIST_STATUSES, { message: `status must be one of ${HITL_LIST_STATUSES.join(', ')}` })
  status?: HitlListStatus;

  /** Default 50, at most 500. */
  // Not IntQueryParam: the bounds keep class-validator's words. `?limit=abc` answers the type rule whatever the
  // order of the rules (validateInput lets a type error outrank the bounds).
  @IsOptional()
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(500)
  limit?: number;
}
