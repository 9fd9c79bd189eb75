import { Transform } from 'class-transformer';

const DIGITS = /^\d{1,9}$/;
const SIGNED_DIGITS = /^-?\d{1,9}$/;

/**
 * Query strings carry text: `?limit=20` becomes 20. Only plain decimal digits
 * (at most nine) are converted; anything else is left as it is, so that the
 * field's integer rule refuses it by name. (validateInput reads such digits in
 * every numeric field anyway, see numeric-text.ts; this transform is what adds
 * the sign.)
 *
 * `negative`: `-5` is read as -5 too, so a negative number is refused by the
 * field's lower bound (`limit must not be less than 1`) rather than as text
 * (`limit must be an integer`). Routes have answered one or the other since
 * they were written; each keeps its answer.
 */
export const QueryInt = (options: { negative?: boolean } = {}) => {
  const digits = options.negative ? SIGNED_DIGITS : DIGITS;
  return Transform(({ value }) => (typeof value === 'string' && digits.test(value) ? Number(value) : value));
};
