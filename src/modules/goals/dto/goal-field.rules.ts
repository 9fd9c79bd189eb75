import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsString, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { BodyRules } from '../../tasks/dto/field.rules';
import { NORTH_STAR_MAX, SPRINT_LABEL_MAX } from '../goals.constants';

/** The sprint label: one line, at most 200 characters; empty clears it. */
export function SprintLabelRules() {
  return applyDecorators(
    Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)),
    IsString({ message: 'sprint must be a string' }),
    MaxLength(SPRINT_LABEL_MAX, { message: `sprint must be at most ${SPRINT_LABEL_MAX} characters` }),
    NoControlChars('sprint', { message: 'sprint must be one line without control characters' }),
  );
}

/** The long-term vision; empty clears it. */
export const NorthStarRules = () => BodyRules('north_star', NORTH_STAR_MAX);
