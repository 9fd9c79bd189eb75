import { CreateChangelogEntryDto } from './create-changelog-entry.dto';
import { SlugRules } from './slug.rules';

/** POST /admin/blog: a changelog entry's fields and a slug, unique among posts. */
export class CreateBlogPostDto extends CreateChangelogEntryDto {
  @SlugRules()
  slug!: string;
}
