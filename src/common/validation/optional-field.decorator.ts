import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/**
 * An optional field. `null` means "not given", as everywhere in Baton (the
 * default applies, or a PATCH leaves the field as it is); any other value must
 * be valid. Fields where null means "clear" use @IsOptional instead.
 */
export const OptionalField = () =>
  applyDecorators(
    Transform(({ value }) => (value === null ? undefined : value)),
    ValidateIf((_object, value) => value !== undefined),
  );
