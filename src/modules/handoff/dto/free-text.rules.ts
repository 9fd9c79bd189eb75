import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength, MinLength } from 'class-validator';

/** Text a person or assistant writes: not blank, line breaks and tabs allowed, no other control characters. */
export function FreeTextRules(field: string, max: number) {
  return applyDecorators(
    IsString({ message: `${field} must be a string` }),
    MinLength(1, { message: `${field} must not be empty` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    Matches(/^(?=[\s\S]*\S)[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/, {
      message: `${field} must be text that is not blank, without control characters other than line breaks and tabs`,
    }),
  );
}

/** One line of text: a title or summary. */
export function OneLineRules(field: string, max: number) {
  return applyDecorators(
    IsString({ message: `${field} must be a string` }),
    MinLength(1, { message: `${field} must not be empty` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    Matches(/^(?=.*\S)[^\u0000-\u001f\u007f]*$/, { message: `${field} must be one line of text that is not blank` }),
  );
}
