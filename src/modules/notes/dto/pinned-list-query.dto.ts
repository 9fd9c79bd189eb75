import { BoolQueryParam } from '../../../common/validation/bool-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

export class PinnedListQueryDto {
  /** true: every decision (superseded and archived too), for the history of each. */
  @OptionalField()
  @BoolQueryParam('include_superseded')
  include_superseded?: boolean;
}
