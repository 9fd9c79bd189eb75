import { Transform } from 'class-transformer';

/** `?include_superseded=true` / `false` become booleans; other text is left for @IsBoolean to refuse. */
export const QueryBool = () => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
