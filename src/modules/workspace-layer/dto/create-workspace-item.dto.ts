import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { HumanIdRules } from '../../notes/dto/human-id.rules';
import { WORKSPACE_ITEM_NOTES_MAX, WORKSPACE_ITEM_OPEN_STATUSES, WORKSPACE_ITEM_TITLE_MAX, WorkspaceItemOpenStatus } from '../workspace-layer.constants';
import { GroupRules } from './group.rules';

export class CreateWorkspaceItemDto {
  @Title('title', WORKSPACE_ITEM_TITLE_MAX)
  title!: string;

  @OptionalField()
  @GroupRules()
  group?: string;

  /** Default todo. */
  @OptionalField()
  @IsIn(WORKSPACE_ITEM_OPEN_STATUSES, { message: `status must be one of ${WORKSPACE_ITEM_OPEN_STATUSES.join(', ')} (complete an item with .../complete)` })
  status?: WorkspaceItemOpenStatus;

  @OptionalField()
  @BodyText('notes', WORKSPACE_ITEM_NOTES_MAX)
  notes?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
