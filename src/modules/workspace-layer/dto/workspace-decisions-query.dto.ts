import { BoolQueryParam } from '../../../common/validation/bool-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

export class WorkspaceDecisionsQueryDto {
  /** true: superseded decisions too, with their supersede links. */
  @OptionalField()
  @BoolQueryParam('include_superseded')
  include_superseded?: boolean;
}
