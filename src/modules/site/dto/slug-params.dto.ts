import { SlugRules } from './slug.rules';

/** GET /api/blog-posts/{slug}. */
export class SlugParamsDto {
  @SlugRules()
  slug!: string;
}
