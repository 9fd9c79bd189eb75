import { applyDecorators } from '@nestjs/common';
import { IsString, Matches, MaxLength } from 'class-validator';

export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A blog post's slug: lowercase letters, digits and single hyphens, at most 100 characters. */
export const SlugRules = () =>
  applyDecorators(
    IsString({ message: 'slug must be a string' }),
    MaxLength(100, { message: 'slug must be at most 100 characters' }),
    Matches(SLUG_PATTERN, { message: 'slug must be lowercase letters, digits and single hyphens' }),
  );
