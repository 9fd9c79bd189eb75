import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/**
 * Text kept exactly as a person or an agent wrote it (a HITL question or
 * answer, a message body): a string, at most `max` characters, not empty
 * (`<field> must not be empty`). Unlike titles and body text it has no rule on
 * its characters.
 */
export function PlainText(field: string, max: number) {
  return applyDecorators(IsString(), MaxLength(max), IsNotEmpty({ message: `${field} must not be empty` }));
}
