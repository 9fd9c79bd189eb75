import { TransformationType } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { classTransformerMetadata } from './class-transformer-storage';

type InputClass<T> = new () => T;

/** Per input class: the properties a plain copy may fill, or null when class-transformer must convert its input. */
const plans = new WeakMap<object, ReadonlySet<string> | null>();

/**
 * What `plainToInstance(cls, plain, { exposeDefaultValues: true })` makes of `plain`, made without
 * class-transformer's walk when that walk would only copy: the class has no class-transformer
 * decorators (nothing typed, transformed, exposed or excluded), no accessor or method named like a
 * field, and every key of `plain` is a field with validation rules whose value is a string, number,
 * boolean or null. Then the answer is a new instance (its defaults set by its constructor) with each
 * key's value copied in the input's order, as class-transformer would make it. Anything else
 * (a nested object, an array, an unknown key) answers undefined: the caller converts as before.
 *
 * Path parameters, queries and most tool arguments are such flat input; class-transformer's walk
 * was about a twentieth of the instructions a read cost the server (bench/instructions.js).
 */
export function plainCopy<T extends object>(cls: InputClass<T>, plain: object): T | undefined {
  const fields = fieldsOf(cls);
  if (!fields) return undefined;
  const record = plain as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys) {
    if (!fields.has(key) || !isScalar(record[key])) return undefined;
  }
  const instance = new cls() as Record<string, unknown>;
  for (const key of keys) instance[key] = record[key];
  return instance as T;
}

function isScalar(value: unknown): boolean {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function fieldsOf(cls: InputClass<object>): ReadonlySet<string> | null {
  let fields = plans.get(cls);
  if (fields === undefined) {
    fields = plainFields(cls);
    plans.set(cls, fields);
  }
  return fields;
}

/** The fields of `cls` a plain copy fills as class-transformer would, or null when one of them (or the class) is decorated for it. */
function plainFields(cls: InputClass<object>): ReadonlySet<string> | null {
  const storage = classTransformerMetadata;
  if (storage.getStrategy(cls) !== 'none' || storage.getExposedMetadatas(cls).length > 0 || storage.getExcludedMetadatas(cls).length > 0) return null;
  const names = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(cls, '', false, false, undefined)
      .map((metadata) => metadata.propertyName),
  );
  const defaults = new cls() as Record<string, unknown>;
  for (const name of names) {
    if (storage.findTypeMetadata(cls, name) || storage.findTransformMetadatas(cls, name, TransformationType.PLAIN_TO_CLASS).length > 0) return null;
    // class-transformer leaves a getter or a method alone where a plain copy would assign.
    if (definedOnPrototypes(cls, name) || typeof defaults[name] === 'function') return null;
  }
  return names;
}

function definedOnPrototypes(cls: InputClass<object>, name: string): boolean {
  for (let proto: unknown = cls.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    if (Object.getOwnPropertyDescriptor(proto, name)) return true;
  }
  return false;
}
