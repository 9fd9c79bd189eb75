import { IsBoolean } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { PROJECT_FILE_MAX_CHARS } from '../project-extras.constants';

export class UpdateSectionDto {
  /** The new text between the section's anchors. */
  @BodyText('content', PROJECT_FILE_MAX_CHARS)
  content!: string;

  /** Add the section (and the file) when missing, instead of answering 404. */
  @OptionalField()
  @IsBoolean({ message: 'create must be a boolean' })
  create?: boolean;

  /** An instruction file in the repository is written at once instead of waiting for a person's review. */
  @OptionalField()
  @IsBoolean({ message: 'force must be a boolean' })
  force?: boolean;

  /** The session proposing the edit: it asks the review question (needed for a reviewed repository edit). */
  @OptionalField()
  @Uuid()
  session_id?: string;
}
