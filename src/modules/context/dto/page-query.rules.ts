import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** A query string integer ("20") becomes a number; anything else is left for IsInt to refuse. */
const toInteger = Transform(({ value }) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : value));

export function LimitRules(max: number) {
  return applyDecorators(toInteger, IsOptional(), IsInt({ message: 'limit must be an integer' }), Min(1), Max(max));
}

export function OffsetRules() {
  return applyDecorators(toInteger, IsOptional(), IsInt({ message: 'offset must be an integer' }), Min(0), Max(1_000_000));
}
