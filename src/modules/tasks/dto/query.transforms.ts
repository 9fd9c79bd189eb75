import { Transform } from 'class-transformer';

/**
 * Query strings carry text: `?limit=20` becomes 20. Only plain decimal digits
 * are converted; anything else is left as it is so that the @IsInt rule names
 * the field. Tool arguments already hold numbers and pass through untouched.
 */
export const QueryInt = () =>
  Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));

/** `?include_superseded=true` / `false` become booleans; other text is left for @IsBoolean to refuse. */
export const QueryBool = () =>
  Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
