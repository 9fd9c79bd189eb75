import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';

/** POST /api/admin/changelog-entries: a title, a markdown body, published or a draft (default draft). */
export class CreateChangelogEntryDto {
  @Title('title', 200)
  title!: string;

  @BodyText('body', 20000)
  body!: string;

  /** A console form sends "on" or nothing for its checkbox; JSON sends a boolean. */
  @OptionalField()
  @Transform(({ value }) => (value === 'on' ? true : value))
  @IsBoolean({ message: 'published must be a boolean' })
  published?: boolean;
}
