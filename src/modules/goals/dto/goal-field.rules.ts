import { applyDecorators } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Trim } from '../../../common/validation/trim.transform';
import { NORTH_STAR_MAX, SPRINT_LABEL_MAX } from '../goals.constants';

/** The sprint label: one line, at most 200 characters; empty clears it. */
export function SprintLabelRules() {
  return applyDecorators(
    Trim(),
    IsString({ message: 'sprint must be a string' }),
    MaxLength(SPRINT_LABEL_MAX, { message: `sprint must be at most ${SPRINT_LABEL_MAX} characters` }),
    NoControlChars('sprint', { message: 'sprint must be one line without control characters' }),
  );
}

/** The long-term vision; empty clears it. */
export const NorthStarRules = () => BodyText('north_star', NORTH_STAR_MAX);
