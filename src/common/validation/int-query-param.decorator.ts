import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';
import { QueryInt } from './query-int.transform';

/**
 * A whole number given in a query string (`?limit=20`) or as a tool's JSON
 * number, between `min` and `max`: QueryInt, then the integer rule, then the
 * bounds, so text that is no number is refused as `<field> must be an integer`
 * before any bound is looked at. Optionality (@IsOptional or @OptionalField)
 * stays with the field.
 *
 * The bounds answer in class-validator's words (`limit must not be less than
 * 1`, `... greater than 500`) unless `messages` gives others: the task and note
 * lists have always said `limit must be at least 1` and `limit must be at most
 * 200`, the sprint lists `limit must be a whole number`.
 */
export function IntQueryParam(field: string, options: { min: number; max?: number; negative?: boolean; messages?: { integer?: string; min?: string; max?: string } }) {
  // Without a bound of its own, a field still stops at the largest exact integer: 1e308 is "an integer" to
  // JavaScript, but no database column or OFFSET holds it (SQLite answered "datatype mismatch", a 500).
  const { min, max = Number.MAX_SAFE_INTEGER, negative, messages = {} } = options;
  const rules = [
    QueryInt({ negative }),
    IsInt({ message: messages.integer ?? `${field} must be an integer` }),
    Min(min, messages.min === undefined ? {} : { message: messages.min }),
  ];
  rules.push(Max(max, messages.max === undefined ? {} : { message: messages.max }));
  return applyDecorators(...rules);
}
