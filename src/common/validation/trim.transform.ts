import { Transform } from 'class-transformer';

/** Text is stored without the white space around it; a value that is not text is left for the type rule to refuse. */
export const Trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));
