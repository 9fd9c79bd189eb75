import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

/** POST .../decisions-pinned, and each element of replace-all. */
export class PinDecisionDto {
  @Title('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
