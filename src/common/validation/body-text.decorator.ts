import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength } from 'class-validator';
import { NoControlChars } from './no-control-chars.decorator';

/**
 * Free text, markdown allowed (a note's body, a goal, a task description, a
 * project file): a string of at most `max` characters that may hold tabs and
 * line breaks but no other control character. `notBlank` also refuses text of
 * white space only (`<field> must not be blank`). Empty text is accepted
 * otherwise: it is how these fields are cleared.
 */
export function BodyText(field: string, max: number, options: { notBlank?: boolean } = {}) {
  const rules = [
    IsString({ message: `${field} must be a string` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    NoControlChars(field, { allow: 'multiLine' }),
  ];
  if (options.notBlank) rules.push(Matches(/\S/, { message: `${field} must not be blank` }));
  return applyDecorators(...rules);
}
