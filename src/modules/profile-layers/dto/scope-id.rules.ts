import { applyDecorators } from '@nestjs/common';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { PROFILE_SCOPES } from '../profile-scope.constants';

/** A scope_type: one of the five scopes. */
export function ScopeTypeRules(property: string) {
  return applyDecorators(IsIn(PROFILE_SCOPES, { message: `${property} must be one of ${PROFILE_SCOPES.join(', ')}` }));
}

/** A scope_id before the scope's own rules (UUID for project and session, `singleton`, ...) are applied. */
export function ScopeIdRules(property: string) {
  return applyDecorators(
    IsString({ message: `${property} must be a string` }),
    MinLength(1, { message: `${property} must not be empty` }),
    MaxLength(200, { message: `${property} must be at most 200 characters` }),
    NoControlChars(property),
  );
}
