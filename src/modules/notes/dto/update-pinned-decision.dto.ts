import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

/**
 * PATCH .../decisions-pinned/{id}: either edit fields in place (title, body,
 * status active/archived) or supersede with new_title and/or new_body (a new
 * active decision replaces this one, which is kept as superseded). Not both.
 */
export class UpdatePinnedDecisionDto {
  @OptionalField()
  @Title('title', NOTE_TITLE_MAX)
  title?: string;

  @OptionalField()
  @BodyText('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @IsIn(['active', 'archived'], { message: 'status must be active or archived (superseding is done with new_title/new_body)' })
  status?: 'active' | 'archived';

  @OptionalField()
  @Title('new_title', NOTE_TITLE_MAX)
  new_title?: string;

  @OptionalField()
  @BodyText('new_body', DECISION_BODY_MAX)
  new_body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
