import { IsIn, IsOptional } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { HumanIdRules } from '../../notes/dto/human-id.rules';
import { WORKSPACE_ITEM_NOTES_MAX, WORKSPACE_ITEM_OPEN_STATUSES, WORKSPACE_ITEM_TITLE_MAX, WorkspaceItemOpenStatus } from '../workspace-layer.constants';
import { GroupRules } from './group.rules';

/** PATCH /workspace/sprint-items/{id}: the fields given change; `group`, `notes` and `human_id` may be null to clear them. */
export class UpdateWorkspaceItemDto {
  @OptionalField()
  @Title('title', WORKSPACE_ITEM_TITLE_MAX)
  title?: string;

  @IsOptional()
  @GroupRules()
  group?: string | null;

  @OptionalField()
  @IsIn(WORKSPACE_ITEM_OPEN_STATUSES, { message: `status must be one of ${WORKSPACE_ITEM_OPEN_STATUSES.join(', ')} (complete an item with .../complete)` })
  status?: WorkspaceItemOpenStatus;

  @IsOptional()
  @BodyText('notes', WORKSPACE_ITEM_NOTES_MAX)
  notes?: string | null;

  @IsOptional()
  @HumanIdRules()
  human_id?: string | null;
}
