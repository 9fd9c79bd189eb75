import { ValidateIf } from 'class-validator';

/**
 * A field that may be left out (the default applies), but is never null: a
 * given null is checked by the field's rules like any other value, and
 * refused. The sprint item fields that have a default use it. Compare
 * @IsOptional (null clears the field) and @OptionalField (null is "not given").
 */
export const OptionalNotNull = () => ValidateIf((_object, value) => value !== undefined);
