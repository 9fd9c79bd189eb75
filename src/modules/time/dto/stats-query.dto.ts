import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { STATS_DAYS_DEFAULT, STATS_DAYS_MAX } from '../time.constants';

/** GET .../stats: how many days back `tasks.per_day` reaches (today included). */
export class StatsQueryDto {
  @OptionalField()
  @IntQueryParam('days', { min: 1, max: STATS_DAYS_MAX })
  days?: number = STATS_DAYS_DEFAULT;
}
