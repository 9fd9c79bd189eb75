import { Transform } from 'class-transformer';

/**
 * A whole number given as text in a query string (`?limit=20`) becomes a
 * number; anything else is left as it is for the validators to refuse. Tool
 * arguments arrive as JSON numbers and pass through unchanged.
 */
export const QueryInt = () => Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value));
