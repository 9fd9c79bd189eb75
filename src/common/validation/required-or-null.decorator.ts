import { ValidateIf } from 'class-validator';

/**
 * A field that must be given, where null is a value: it clears what the field
 * held (a project's icon, parent or agent instructions). Anything else must
 * pass the field's rules; a missing field is refused by them.
 */
export const RequiredOrNull = () => ValidateIf((_object, value) => value !== null);
