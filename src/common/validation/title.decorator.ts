import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from './no-control-chars.decorator';
import { Trim } from './trim.transform';

/**
 * A one-line title, name or label: stored cleaned (trimmed by default), a
 * string, not empty, at most `max` characters, without control characters.
 * Checked in that order, so the first broken rule is the one reported:
 * `<field> must be a string`, `<field> must not be empty`, `<field> must be at
 * most <max> characters`, `<field> must not contain control characters`.
 *
 * `clean` replaces the trimming (a project name also has its inner white space
 * collapsed). `classValidatorLengthMessage` keeps class-validator's own words
 * for a text too long (`<field> must be shorter than or equal to <max>
 * characters`), which the sprint and project routes have always answered.
 */
export function Title(field: string, max: number, options: { clean?: (text: string) => string; classValidatorLengthMessage?: boolean } = {}) {
  const { clean } = options;
  return applyDecorators(
    clean ? Transform(({ value }) => (typeof value === 'string' ? clean(value) : value)) : Trim(),
    IsString({ message: `${field} must be a string` }),
    IsNotEmpty({ message: `${field} must not be empty` }),
    MaxLength(max, options.classValidatorLengthMessage ? {} : { message: `${field} must be at most ${max} characters` }),
    NoControlChars(field),
  );
}
