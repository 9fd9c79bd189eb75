import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../../notes/notes.constants';

/**
 * POST /workspace/decisions (set_workspace_decision). An active decision with
 * the same title (any case) is superseded by this one; `supersedes` names the
 * decision to replace explicitly (for a new title).
 */
export class SetWorkspaceDecisionDto {
  @Title('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @Uuid()
  supersedes?: string;
}
