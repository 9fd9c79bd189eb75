import { BodyRules, OptionalField, TagsRules, TitleRules } from '../../tasks/dto/field.rules';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';

/** PATCH a note: the fields given change; tags are replaced as a whole. */
export class UpdateNoteDto {
  @OptionalField()
  @TitleRules('title', NOTE_TITLE_MAX)
  title?: string;

  @OptionalField()
  @BodyRules('body', NOTE_BODY_MAX)
  body?: string;

  @OptionalField()
  @TagsRules()
  tags?: string[];
}
