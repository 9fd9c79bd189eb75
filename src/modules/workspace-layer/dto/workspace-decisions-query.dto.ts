import { IsBoolean } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { QueryBool } from '../../../common/validation/query-bool.transform';

export class WorkspaceDecisionsQueryDto {
  /** true: superseded decisions too, with their supersede links. */
  @OptionalField()
  @QueryBool()
  @IsBoolean({ message: 'include_superseded must be true or false' })
  include_superseded?: boolean;
}
