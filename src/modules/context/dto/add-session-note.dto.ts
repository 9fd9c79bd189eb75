import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

export const SESSION_NOTE_MAX = 10_000;

export class AddSessionNoteDto {
  /** Free text, kept as written (line breaks included). */
  @IsString()
  @MinLength(1, { message: 'body must not be empty' })
  @MaxLength(SESSION_NOTE_MAX)
  @Matches(/^(?=[\s\S]*\S)[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, {
    message: 'body must be text that is not blank, without control characters other than line breaks and tabs',
  })
  body!: string;
}
