import { BodyRules } from '../../tasks/dto/field.rules';
import { PROJECT_FILE_MAX_CHARS } from '../project-extras.constants';

/** PUT .../files/{filename}: the whole new content. */
export class WriteFileDto {
  @BodyRules('content', PROJECT_FILE_MAX_CHARS)
  content!: string;
}
