import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

/** A person identifier (`human_id`): at most 200 characters, one line. */
export function HumanIdRules() {
  return applyDecorators(
    IsString({ message: 'human_id must be a string' }),
    IsNotEmpty({ message: 'human_id must not be empty' }),
    MaxLength(200, { message: 'human_id must be at most 200 characters' }),
    Matches(/^[^\u0000-\u001f\u007f]*$/, { message: 'human_id must not contain control characters' }),
  );
}
