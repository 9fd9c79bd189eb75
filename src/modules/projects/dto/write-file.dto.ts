import { BodyText } from '../../../common/validation/body-text.decorator';
import { PROJECT_FILE_MAX_CHARS } from '../project-extras.constants';

/** PUT .../files/{filename}: the whole new content. */
export class WriteFileDto {
  @BodyText('content', PROJECT_FILE_MAX_CHARS)
  content!: string;
}
