import { IsUUID } from 'class-validator';
import { BodyRules, OptionalField, TitleRules } from '../../tasks/dto/field.rules';
import { DECISION_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';
import { HumanIdRules } from './human-id.rules';

/** POST .../decisions: append a decision (what was decided; why in body) to the log. */
export class LogDecisionDto {
  @TitleRules('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyRules('body', DECISION_BODY_MAX)
  body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;

  /** The session that took it; must be a session of the project. */
  @OptionalField()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}
