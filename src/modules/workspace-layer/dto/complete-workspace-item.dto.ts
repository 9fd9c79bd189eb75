import { BodyRules, OptionalField } from '../../tasks/dto/field.rules';
import { WORKSPACE_ITEM_NOTES_MAX } from '../workspace-layer.constants';

export class CompleteWorkspaceItemDto {
  /** Replaces the item's notes when given (what was done, evidence). */
  @OptionalField()
  @BodyRules('notes', WORKSPACE_ITEM_NOTES_MAX)
  notes?: string;
}
