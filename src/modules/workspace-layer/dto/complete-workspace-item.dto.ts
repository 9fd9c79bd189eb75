import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { WORKSPACE_ITEM_NOTES_MAX } from '../workspace-layer.constants';

export class CompleteWorkspaceItemDto {
  /** Replaces the item's notes when given (what was done, evidence). */
  @OptionalField()
  @BodyText('notes', WORKSPACE_ITEM_NOTES_MAX)
  notes?: string;
}
