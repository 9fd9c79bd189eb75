import { IsBoolean } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { QueryBool } from '../../../common/validation/query-bool.transform';

export class PinnedListQueryDto {
  /** true: every decision (superseded and archived too), for the history of each. */
  @OptionalField()
  @QueryBool()
  @IsBoolean({ message: 'include_superseded must be true or false' })
  include_superseded?: boolean;
}
