import { BodyRules, OptionalField, TagsRules, TitleRules } from '../../tasks/dto/field.rules';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';

/** A note: title, markdown body (default empty), tags (default none). Project and workspace notes alike. */
export class CreateNoteDto {
  @TitleRules('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyRules('body', NOTE_BODY_MAX)
  body?: string;

  @OptionalField()
  @TagsRules()
  tags?: string[];
}
