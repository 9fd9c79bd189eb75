import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** A one-line title: trimmed, not empty, at most `max` characters, no control characters. */
export function TitleRules(field: string, max = 300) {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsString({ message: `${field} must be a string` }),
    IsNotEmpty({ message: `${field} must not be empty` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    NoControlChars(field),
  );
}

/** Free text (markdown allowed): at most `max` characters; tabs and line breaks but no other control characters. */
export function BodyRules(field: string, max: number, options: { notBlank?: boolean } = {}) {
  const rules = [
    IsString({ message: `${field} must be a string` }),
    MaxLength(max, { message: `${field} must be at most ${max} characters` }),
    NoControlChars(field, { allow: 'multiLine' }),
  ];
  if (options.notBlank) rules.push(Matches(/\S/, { message: `${field} must not be blank` }));
  return applyDecorators(...rules);
}

export const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.:/-]{0,49}$/u;
export const MAX_TAGS = 20;

/**
 * Tags of a note: at most 20, each a word of letters, digits and `_ . : / -`
 * (at most 50 characters), compared without regard to case. Stored lowercase,
 * without duplicates.
 */
export function TagsRules() {
  return applyDecorators(
    Transform(({ value }) =>
      Array.isArray(value) && value.every((t) => typeof t === 'string')
        ? [...new Set((value as string[]).map((t) => t.trim().toLowerCase()))]
        : value,
    ),
    IsArray({ message: 'tags must be an array of strings' }),
    ArrayMaxSize(MAX_TAGS, { message: `tags must hold at most ${MAX_TAGS} tags` }),
    IsString({ each: true, message: 'each value in tags must be a string' }),
    Matches(TAG_PATTERN, { each: true, message: 'each value in tags must be a word of letters, digits and _ . : / - (at most 50 characters)' }),
  );
}

/** A single tag in a query string (`?tag=`): the same shape as a stored tag. */
export function TagQueryRules() {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim().toLowerCase() : value)),
    IsString({ message: 'tag must be a string' }),
    Matches(TAG_PATTERN, { message: 'tag must be a word of letters, digits and _ . : / - (at most 50 characters)' }),
  );
}

/**
 * An optional field. `null` means "not given", as everywhere in Baton (the
 * default applies, or a PATCH leaves the field as it is); any other value must
 * be valid. Fields where null means "clear" use @IsOptional instead.
 */
export const OptionalField = () =>
  applyDecorators(
    Transform(({ value }) => (value === null ? undefined : value)),
    ValidateIf((_object, value) => value !== undefined),
  );
