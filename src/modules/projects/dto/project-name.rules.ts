import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { cleanProjectName } from '../project-name.util';

export const PROJECT_NAME_MAX = 200;

/** The rules every project name obeys, wherever it is given. */
export function ProjectNameRules() {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? cleanProjectName(value) : value)),
    IsString(),
    IsNotEmpty({ message: 'name must not be empty' }),
    MaxLength(PROJECT_NAME_MAX),
    NoControlChars('name'),
  );
}
