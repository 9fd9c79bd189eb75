import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, Matches } from 'class-validator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** A named agent: 1 to 64 letters, digits and `._@-`, starting with a letter or digit. */
export const AGENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;

export function OptionalAgentName(field: string) {
  return applyDecorators(IsOptional(), IsString(), Matches(AGENT_NAME, { message: `${field} must be 1 to 64 letters, digits or ._@- starting with a letter or digit` }));
}

export function OptionalSessionId() {
  return applyDecorators(IsOptional(), Uuid());
}
