import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** Text a person or assistant writes: not blank, line breaks and tabs allowed, no other control characters. */
export function FreeTextRules(field: string, max: number) {
  return applyDecorators(
    IsString({ message: `${field} must be a string` }),
    MinLength(1, { message: `${field} must not be empty` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    NoControlChars(field, {
      allow: 'multiLineNotBlank',
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
    NoControlChars(field, { allow: 'oneLineNotBlank', message: `${field} must be one line of text that is not blank` }),
  );
}
