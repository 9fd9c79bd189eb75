import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

/**
 * A yes/no given in a query string (`?include_superseded=true`) or as a tool's
 * JSON boolean: the texts `true` and `false` become booleans, and anything
 * else is refused with `<field> must be true or false`. Optionality stays with
 * the field.
 */
export const BoolQueryParam = (field: string) =>
  applyDecorators(
    Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value)),
    IsBoolean({ message: `${field} must be true or false` }),
  );
