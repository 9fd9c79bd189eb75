import { getMetadataStorage } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { Random } from './random';

/**
 * Inputs generated from a JSON Schema: the schema of a REST input class (built
 * from its class-validator rules) or the `inputSchema` a tool publishes. One
 * valid-looking value, then one field at a time broken, each broken value with
 * what the service must answer to it.
 */

export interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  oneOf?: JsonSchema[];
  $ref?: string;
}

/** The JSON Schema of an input class, from the same class-validator metadata the service validates with. */
export function schemaOfClass(cls: unknown): JsonSchema | undefined {
  if (typeof cls !== 'function') return undefined;
  if (getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length === 0) return undefined;
  return targetConstructorToSchema(cls, { classValidatorMetadataStorage: getMetadataStorage() }) as JsonSchema;
}

/**
 * What the answer to an input must be.
 * - `names`: refused (REST 400, a tool's isError) with a detail that names the field;
 * - `refused`: refused with a client error;
 * - `any`: anything but a server error.
 */
export type Expectation = 'names' | 'refused' | 'any';

export interface Mutation {
  field: string;
  label: string;
  /** REMOVE: the field is left out. */
  value: unknown;
  expect: Expectation;
  /** The value is an id of the other tenant's (or project's) object. */
  foreign?: boolean;
  /** A wrong type or the field left out: the refusal must say so, not speak of a bound, length or pattern. */
  typeError?: boolean;
}

export const REMOVE = Symbol('remove');

export interface ValueSource {
  rng: Random;
  /** A real id for a field of this name, from the world the request is made in. */
  idFor(field: string): string | undefined;
  /** A string unique to the world, put in every text it stores. */
  marker: string;
}

export const LONE_SURROGATE = 'before\ud800after';

/** Strings of the shapes Baton's patterns ask for (short handles, handoff tokens, typed resources, single emoji), tried when the marker does not fit. */
const SHAPES = ['a1', 'a', 'ho_abcdefghijklmnop', 'file:src/a.ts', '🚀'];

/** Fields whose rules a JSON Schema cannot state (a typed resource, a single emoji, a status list), by name. */
const FIELD_SHAPES: [RegExp, string][] = [
  [/resource/, 'file:src/app.ts'],
  [/icon/, '🚀'],
  [/^status$/, 'pending'],
];

function resolved(schema: JsonSchema): JsonSchema {
  if (schema.oneOf?.length) return resolved(schema.oneOf[0]);
  if (schema.type) return schema;
  if (schema.$ref === '#/definitions/Array') return { type: 'array' };
  if (schema.$ref) return { type: 'object' };
  return schema;
}

function matches(schema: JsonSchema, text: string): boolean {
  if (schema.minLength !== undefined && text.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && text.length > schema.maxLength) return false;
  if (!schema.pattern) return true;
  let re: RegExp;
  try {
    re = new RegExp(schema.pattern, 'u');
  } catch {
    re = new RegExp(schema.pattern);
  }
  return re.test(text);
}

/** A seeded UUID, so that a replay sends the same ids. */
export function seededUuid(rng: Random): string {
  const hex = Array.from({ length: 32 }, () => '0123456789abcdef'[rng.int(16)]).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A value that a field of this schema accepts (as far as the schema says). */
export function validValue(schema: JsonSchema, field: string, src: ValueSource): unknown {
  const s = resolved(schema);
  if (s.enum?.length) return src.rng.pick(s.enum);
  switch (s.type) {
    case 'string': {
      if (s.format === 'uuid') return src.idFor(field) ?? seededUuid(src.rng);
      // The end of a range is later than its start.
      const late = /until|end/.test(field);
      if (s.format === 'date') return late ? '2026-12-31' : '2026-01-02';
      if (s.format === 'date-time') return late ? '2026-12-31T03:04:05.000Z' : '2026-01-02T03:04:05.000Z';
      if (s.format === 'email') return `fuzz-${src.marker}@example.com`;
      const id = src.idFor(field);
      const hinted = FIELD_SHAPES.filter(([name]) => name.test(field)).map(([, shape]) => shape);
      const candidates = [...(id ? [id] : []), ...hinted, `${src.marker} ${field}`, `${src.marker}-${field.replace(/_/g, '-')}`, `${src.marker}.md`, src.marker, ...SHAPES];
      return candidates.find((c) => matches(s, c)) ?? 'a'.repeat(Math.max(1, s.minLength ?? 1));
    }
    case 'integer':
    case 'number': {
      // Waits and time-outs at their minimum, so that no request sits waiting.
      if (/wait|timeout|ttl/.test(field)) return s.minimum ?? 0;
      const low = s.minimum ?? 0;
      const high = Math.min(s.maximum ?? low + 10, low + 10);
      return low + src.rng.int(high - low + 1);
    }
    case 'boolean':
      return src.rng.next() < 0.5;
    case 'array': {
      const n = Math.max(s.minItems ?? 0, 1);
      return Array.from({ length: n }, () => (s.items ? validValue(s.items, field, src) : src.marker));
    }
    case 'object':
      return validObject(s, src);
    default:
      return src.marker;
  }
}

/** An object with every required field and, at random, some of the optional ones. */
export function validObject(schema: JsonSchema, src: ValueSource): Record<string, unknown> {
  const required = new Set(schema.required ?? []);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    if (required.has(name) || src.rng.next() < 0.5) out[name] = validValue(prop, name, src);
  }
  return out;
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? 'number' : typeof value;
}

function schemaJsonType(s: JsonSchema): string | undefined {
  if (s.type === 'integer') return 'number';
  return s.type;
}

const WRONG_TYPES: unknown[] = [true, 42, 3.5, 'text', [], ['a'], {}, { nested: { deep: [null] } }];

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? { down: value } : [value];
  return value;
}

/**
 * Broken values for one field. Some are always sent (a lone surrogate and null
 * in every string field, a wrong type, a non-UUID id, leaving out a required
 * field); the rest are picked at random.
 */
export function fieldMutations(schema: JsonSchema, field: string, required: boolean, src: ValueSource, opts: { hugeLength: number; foreignId?: string }): Mutation[] {
  const s = resolved(schema);
  const type = schemaJsonType(s);
  const out: Mutation[] = [];
  const add = (label: string, value: unknown, expect: Expectation, foreign?: boolean, typeError?: boolean) => out.push({ field, label, value, expect, foreign, typeError });
  if (type === 'string') add('lone surrogate', LONE_SURROGATE, 'names');
  add('null', null, required ? 'names' : 'any');
  if (required) add('left out', REMOVE, 'names', false, true);
  if (type) {
    // A 0/1 flag takes a boolean too, as its rule says ("0 or 1 (or a boolean)").
    const flag = type === 'number' && JSON.stringify(s.enum) === '[0,1]';
    const wrong = WRONG_TYPES.filter((w) => jsonType(w) !== type && !(flag && typeof w === 'boolean'));
    const value = src.rng.pick(wrong);
    add(`wrong type ${JSON.stringify(value)}`, value, 'refused', false, true);
  }
  if (s.enum?.length) add('value outside the enum', 'not-one-of-them', 'names');
  if (s.format === 'uuid') {
    add('not a UUID', src.rng.pick(['not-a-uuid', '123', `${seededUuid(src.rng)}0`, "' OR 1=1 --"]), 'names');
    if (opts.foreignId) add("the other world's id", opts.foreignId, 'any', true);
  }
  const optional: Mutation[] = [];
  const maybe = (label: string, value: unknown, expect: Expectation) => optional.push({ field, label, value, expect });
  if (type && type !== 'array') maybe('array for a scalar', [validValue(s, field, src)], type === 'object' ? 'any' : 'refused');
  if (type !== 'object') maybe('deeply nested value', nested(40), 'refused');
  if (type === 'string') {
    maybe('control characters', `${src.marker}\u0000\u0001\u001b[2J`, 'any');
    maybe('huge string', 'x'.repeat(opts.hugeLength), s.maxLength !== undefined && s.maxLength < opts.hugeLength ? 'refused' : 'any');
    maybe('hostile text', src.rng.pick(["'; DROP TABLE projects; --", '../../etc/passwd', '%_\\', '\u202eevil', '😀'.repeat(30), ' ', '']), 'any');
  }
  if (type === 'number') maybe('number out of range', src.rng.pick([-1, 1e308, 2 ** 53, 0.5, -0]), 'any');
  if (s.format === 'uuid') maybe('random UUID', seededUuid(src.rng), 'any');
  out.push(...src.rng.sample(optional, Math.min(2, optional.length)));
  return out;
}

/** Every field's mutations, for an object schema. */
export function objectMutations(schema: JsonSchema, src: ValueSource, opts: { hugeLength: number; foreignIdFor(field: string): string | undefined }): Mutation[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).flatMap(([name, prop]) =>
    fieldMutations(prop, name, required.has(name), src, { hugeLength: opts.hugeLength, foreignId: opts.foreignIdFor(name) }),
  );
}

/** Applies a mutation to a valid object. */
export function mutated(valid: Record<string, unknown>, m: Mutation): Record<string, unknown> {
  const copy = { ...valid };
  if (m.value === REMOVE) delete copy[m.field];
  else copy[m.field] = m.value;
  return copy;
}

/** A value nested deeper than the service's limit of 64 levels: refused before it is parsed. */
export const TOO_DEEP = nested(70);
