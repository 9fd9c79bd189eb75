import { plainToInstance } from 'class-transformer';
import { validate, ValidationError, ValidatorOptions } from 'class-validator';
import { RequestError } from '../errors/request-error';
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

/** How every input is validated: unknown fields refused, the first failing rule of a field reported. */
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
  const hidden = findPrototypeKey(plain);
  if (hidden) throw RequestError.invalidInput(`unknown field ${hidden}`);
  const instance = plainToInstance(cls, plain, { exposeDefaultValues: true });
  if (quickCheck && passesQuickCheck(instance)) return instance;
  const errors = await validate(instance, VALIDATION_OPTIONS);
  if (errors.length > 0) throw RequestError.invalidInput(describe(errors).join('; '));
  return instance;
}

/** Names that class-transformer skips while copying, so whitelisting would never see them. */
const PROTOTYPE_KEYS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * The path of the first key, at any depth, named like a built-in object
 * property (`constructor`, `__proto__`, `toString`, ...). No input class
 * declares such a field, and the conversion step would drop it silently
 * instead of letting validation refuse it.
 */
function findPrototypeKey(value: unknown, prefix = '', depth = 0): string | undefined {
  if (value === null || typeof value !== 'object' || depth > 32) return undefined;
  for (const key of Object.keys(value)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (PROTOTYPE_KEYS.has(key)) return path;
    const nested = findPrototypeKey((value as Record<string, unknown>)[key], Array.isArray(value) ? prefix : path, depth + 1);
    if (nested) return nested;
  }
  return undefined;
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(`property ${error.property} `)
        ? `unknown field ${path}`
        : message.replace(new RegExp(`^(each value in )?${escape(error.property)}\\b`), (m, each) => `${each ?? ''}${path}`),
    );
    return [...own, ...describe(error.children ?? [], path)];
  });
}

function escape(s: string) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
