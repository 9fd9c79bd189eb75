import { Transform } from 'class-transformer';

/** A query-string number ("20", "0.5") becomes a number; anything else is left for the validators to refuse. */
export const QueryNumber = () => Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}(\.\d{1,3})?$/.test(value) ? Number(value) : value));
