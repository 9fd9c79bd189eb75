import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { TagsRules } from './tag.rules';
import { NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';

/** A note: title, markdown body (default empty), tags (default none). Project and workspace notes alike. */
export class CreateNoteDto {
  @Title('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', NOTE_BODY_MAX)
  body?: string;

  @OptionalField()
  @TagsRules()
  tags?: string[];
}
