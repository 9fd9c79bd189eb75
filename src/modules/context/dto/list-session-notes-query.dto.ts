import { LimitRules, OffsetRules } from './page-query.rules';

export class ListSessionNotesQueryDto {
  /** Default 50, at most 200. */
  @LimitRules(200)
  limit?: number;

  @OffsetRules()
  offset?: number;
}
