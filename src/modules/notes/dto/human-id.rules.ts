import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';

/** A person identifier (`human_id`): at most 200 characters, one line. */
export function HumanIdRules() {
  return applyDecorators(
    IsString({ message: 'human_id must be a string' }),
    IsNotEmpty({ message: 'human_id must not be empty' }),
    MaxLength(200, { message: 'human_id must be at most 200 characters' }),
    NoControlChars('human_id'),
  );
}
