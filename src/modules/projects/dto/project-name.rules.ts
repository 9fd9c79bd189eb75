import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { cleanProjectName } from '../project-name.util';

export const PROJECT_NAME_MAX = 200;

/** The rules every project name obeys, wherever it is given. */
export function ProjectNameRules() {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? cleanProjectName(value) : value)),
    IsString(),
    IsNotEmpty({ message: 'name must not be empty' }),
    MaxLength(PROJECT_NAME_MAX),
    Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'name must not contain control characters' }),
  );
}
