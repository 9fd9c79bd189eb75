import { BodyText } from '../../../common/validation/body-text.decorator';
import { Title } from '../../../common/validation/title.decorator';

/** POST /workspace/blog: a title and a Markdown body. */
export class CreateWorkspaceBlogPostDto {
  @Title('title', 200)
  title!: string;

  @BodyText('body', 50_000, { notBlank: true })
  body!: string;
}
