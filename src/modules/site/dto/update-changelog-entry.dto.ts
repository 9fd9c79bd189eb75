import { IsBoolean } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';

/** PATCH /api/admin/changelog-entries/{entry_id}: any of the fields; `published` publishes or unpublishes. */
export class UpdateChangelogEntryDto {
  @OptionalField()
  @Title('title', 200)
  title?: string;

  @OptionalField()
  @BodyText('body', 20000)
  body?: string;

  @OptionalField()
  @IsBoolean({ message: 'published must be a boolean' })
  published?: boolean;
}
