import { getMetadataStorage, ValidationTypes } from 'class-validator';

/** Plain decimal digits: what a whole-number field takes as text. */
const WHOLE = /^\d{1,9}$/;
/** Digits with up to three decimals: what a field of any number (seconds to wait) takes as text. */
const DECIMAL = /^\d{1,9}(\.\d{1,3})?$/;

type NumericKind = 'whole' | 'decimal';

const plans = new WeakMap<object, { numeric: Map<string, NumericKind>; nested: Set<string> }>();

/**
 * Baton's one rule for numbers given as text: every numeric field (a rule of
 * class-validator's IsInt or IsNumber) takes the number itself or the same
 * number written as plain decimal digits (`"5"`, and `"0.5"` where fractions
 * are allowed), in a query string, a JSON body and MCP tool arguments alike.
 * Query strings only carry text, and a client that quotes a number in JSON
 * means the number. Anything else (`"abc"`, `" 5"`, `"1e3"`, `"-1"`, ten or
 * more digits) is left as it is, for the field's type rule to refuse by name.
 * A sign is read only where a field's own QueryInt({ negative }) reads it.
 *
 * Converts `instance` in place, nested input objects and arrays of them
 * included, before it is validated.
 */
export function readNumericText(instance: object, depth = 0): void {
  if (depth > 64) return;
  const plan = planFor(instance.constructor);
  const record = instance as Record<string, unknown>;
  for (const [property, kind] of plan.numeric) {
    const value = record[property];
    if (typeof value === 'string' && (kind === 'whole' ? WHOLE : DECIMAL).test(value)) record[property] = Number(value);
  }
  for (const property of plan.nested) {
    const value = record[property];
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && typeof item === 'object' && !Array.isArray(item)) readNumericText(item, depth + 1);
    }
  }
}

function planFor(cls: object) {
  let plan = plans.get(cls);
  if (!plan) {
    plan = { numeric: new Map<string, NumericKind>(), nested: new Set<string>() };
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls as new () => object, '', true, false, undefined);
    for (const metadata of metadatas) {
      if (metadata.type === ValidationTypes.NESTED_VALIDATION) plan.nested.add(metadata.propertyName);
      if (metadata.each) continue;
      if (metadata.name === 'isInt') plan.numeric.set(metadata.propertyName, 'whole');
      else if (metadata.name === 'isNumber' && !plan.numeric.has(metadata.propertyName)) plan.numeric.set(metadata.propertyName, 'decimal');
    }
    plans.set(cls, plan);
  }
  return plan;
}
