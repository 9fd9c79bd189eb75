import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import { PROJECT_FILENAME } from '../project-extras.constants';

/** A project markdown file name: letters, digits, `. _ -`, ending in .md; no folders and no `..`, so no path can escape. */
export function FilenameRules() {
  return applyDecorators(
    IsString({ message: 'filename must be a string' }),
    Matches(PROJECT_FILENAME, { message: 'filename must be a plain file name ending in .md (letters, digits, . _ -; no folders, no ..)' }),
  );
}
