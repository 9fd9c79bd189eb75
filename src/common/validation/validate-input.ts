import { plainToInstance } from 'class-transformer';
import { validate, ValidationError, ValidatorOptions } from 'class-validator';
import { RequestError } from '../errors/request-error';
import { MAX_JSON_DEPTH } from './json-depth';
import { readNumericText } from './numeric-text';
import { plainCopy } from './plain-copy';
import { passesQuickCheck } from './quick-check';

let quickCheck = true;

/**
 * Switches the quick check in front of class-validator on or off. Production keeps it on;
 * `npm run bench -- internals validation` measures what it buys.
 */
export function useQuickCheck(on: boolean): void {
  quickCheck = on;
}

export type InputClass<T> = new () => T;

/**
 * How every input is validated: unknown fields refused, the first failing rule of a field reported
 * (unless the field is missing or of the wrong type: see `describe`).
 */
export const VALIDATION_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: true,
  validationError: { target: false, value: false },
};

/**
 * Turns untrusted input (a JSON body, query, path params or MCP tool arguments)
 * into an instance of `cls`, validated with class-validator. Unknown fields are
 * refused, not dropped. Throws RequestError.invalidInput naming each bad field.
 * REST and MCP both call this, so both give the same `detail` for the same input.
 */
export async function validateInput<T extends object>(cls: InputClass<T>, input: unknown, what = 'request body'): Promise<T> {
  const plain = input === undefined || input === null ? {} : input;
  if (typeof plain !== 'object' || Array.isArray(plain)) {
    throw RequestError.invalidInput(`${what} must be a JSON object`);
  }
  const refusal = findRefusal(plain);
  if (refusal) throw RequestError.invalidInput(refusal);
  const instance = plainCopy(cls, plain) ?? plainToInstance(cls, plain, { exposeDefaultValues: true });
  readNumericText(instance);
  if (quickCheck && passesQuickCheck(instance)) return instance;
  const errors = await validate(instance, VALIDATION_OPTIONS);
  if (errors.length === 0) return instance;
  // Only on the way to a refusal: every failing rule of each field, so that a type error outranks the others.
  const every = await validate(instance, { ...VALIDATION_OPTIONS, stopAtFirstError: false, validationError: { target: false, value: true } });
  throw RequestError.invalidInput(describe(errors, failuresByPath(every)).join('; '));
}

/** Names that class-transformer skips while copying, so whitelisting would never see them. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * What every input is refused for whatever its class, found in one walk over
 * it before conversion and validation:
 * - a key, at any depth, named like a built-in object property (`constructor`,
 *   `__proto__`, `toString`, ...): no input class declares such a field, and the
 *   conversion step would drop it silently instead of letting validation refuse it;
 * - a string, at any depth, with a lone UTF-16 surrogate (`"\ud800"`): it is not
 *   Unicode text, and storing it would silently turn it into U+FFFD.
 * The walk stops at MAX_JSON_DEPTH, the deepest a request body may nest.
 */
function findRefusal(value: unknown, prefix = '', depth = 0): string | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? `${prefix || 'value'} must be valid Unicode text (it contains a lone surrogate)` : undefined;
  if (value === null || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    const path = isArray ? `${prefix}[${key}]` : prefix ? `${prefix}.${key}` : key;
    if (!isArray && PROTOTYPE_KEYS.has(key)) return `unknown field ${path}`;
    const nested = findRefusal((value as Record<string, unknown>)[key], path, depth + 1);
    if (nested) return nested;
  }
  return undefined;
}

/**
 * class-validator's rules that say what type a value must have. A field whose value breaks one
 * of them is answered with it (`wait must be a number`), never with a bound, length or pattern
 * rule the wrong value also breaks (`wait must not be greater than 3600`): those would send the
 * caller after the wrong mistake. Containers first: `tags: 5` is not an array before its items are
 * anything.
 */
const TYPE_RULES = ['isArray', 'isObject', 'isString', 'isInt', 'isNumber', 'isBoolean'];

interface Failure {
  missing: boolean;
  constraints: Record<string, string>;
}

/** Every failing rule of every field, by path, from a validation that did not stop at a field's first failure. */
function failuresByPath(errors: ValidationError[], prefix = '', into = new Map<string, Failure>()): Map<string, Failure> {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints) into.set(path, { missing: error.value === undefined, constraints: error.constraints });
    failuresByPath(error.children ?? [], path, into);
  }
  return into;
}

/**
 * One message per bad field, naming it with its path: `<field> is required` when it was left
 * out, else the type rule it breaks, else its first failing rule in declared order.
 */
function describe(errors: ValidationError[], every: Map<string, Failure>, prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const name = (message: string) =>
      message.startsWith(`property ${error.property} `)
        ? `unknown field ${path}`
        : message.replace(new RegExp(`^(each value in )?${escape(error.property)}\\b`), (m, each) => `${each ?? ''}${path}`);
    let own = Object.values(error.constraints ?? {}).map(name);
    const all = every.get(path);
    if (own.length > 0 && all && !own[0].startsWith('unknown field ')) {
      const typeRule = TYPE_RULES.find((rule) => all.constraints[rule] !== undefined);
      if (all.missing) own = [`${path} is required`];
      else if (typeRule) own = [name(all.constraints[typeRule])];
    }
    return [...own, ...describe(error.children ?? [], every, path)];
  });
}

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
