import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

/** POST .../decisions: append a decision (what was decided; why in body) to the log. */
export class LogDecisionDto {
  @Title('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;

  /** The session that took it; must be a session of the project. */
  @OptionalField()
  @Uuid()
  session_id?: string;
}
