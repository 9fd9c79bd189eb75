import { IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

/** The form fields of POST .../documents/upload besides the file: the name to store it under (default: the uploaded file's name). */
export class UploadDocumentDto {
  @OptionalField()
  @IsString({ message: 'filename must be a string' })
  @MaxLength(100, { message: 'filename must be at most 100 characters' })
  filename?: string;
}
