import { applyDecorators } from '@nestjs/common';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';

/**
 * Who answered, who is asked, who sends: a name, session id or agent as the
 * caller gives it. A string of 1 to 200 characters, with class-validator's
 * own messages (`answered_by should not be empty`), as these fields have
 * always answered.
 */
export const ShortName = () => applyDecorators(IsString(), MaxLength(200), IsNotEmpty());
