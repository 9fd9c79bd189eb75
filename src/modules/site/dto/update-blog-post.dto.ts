import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { SlugRules } from './slug.rules';
import { UpdateChangelogEntryDto } from './update-changelog-entry.dto';

/** PATCH /admin/blog/{entry_id}. */
export class UpdateBlogPostDto extends UpdateChangelogEntryDto {
  @OptionalField()
  @SlugRules()
  slug?: string;
}
