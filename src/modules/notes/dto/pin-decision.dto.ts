import { BodyRules, OptionalField, TitleRules } from '../../tasks/dto/field.rules';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

/** POST .../decisions-pinned, and each element of replace-all. */
export class PinDecisionDto {
  @TitleRules('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyRules('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
