import { applyDecorators } from '@nestjs/common';
import { IsString, Matches } from 'class-validator';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** A named agent: 1 to 64 letters, digits and `._@-`, starting with a letter or digit. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

/** May be left out; null is refused like any other bad value (it would reach the service as a reader or recipient of null). */
export function OptionalAgentName(field: string) {
  return applyDecorators(
    OptionalNotNull(),
    IsString({ message: `${field} must be a string` }),
    Matches(AGENT_NAME, { message: `${field} must be 1 to 64 letters, digits or ._@- starting with a letter or digit` }),
  );
}

export function OptionalSessionId() {
  return applyDecorators(OptionalNotNull(), Uuid());
}
