import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsString, Matches } from 'class-validator';

const TAG_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N}_.:/-]{0,49}$/u;
const MAX_TAGS = 20;

/**
 * Tags of a note (project and workspace notes alike): at most 20, each a word
 * of letters, digits and `_ . : / -` (at most 50 characters), compared without
 * regard to case. Stored lowercase, without duplicates.
 */
export function TagsRules() {
  return applyDecorators(
    Transform(({ value }) => (Array.isArray(value) && value.every((t) => typeof t === 'string') ? [...new Set((value as string[]).map((t) => t.trim().toLowerCase()))] : value)),
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
