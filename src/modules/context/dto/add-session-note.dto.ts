import { IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

export const SESSION_NOTE_MAX = 10_000;

export class AddSessionNoteDto {
  /** Free text, kept as written (line breaks included). */
  @IsString()
  @MinLength(1, { message: 'body must not be empty' })
  @MaxLength(SESSION_NOTE_MAX)
  @NoControlChars('body', {
    allow: 'multiLineNotBlank',
    message: 'body must be text that is not blank, without control characters other than line breaks and tabs',
  })
  body!: string;
}
