import { findSecret, isMachineLocalPath } from '../../../libs/secrets';
import { CONTROL_CHARS } from '../../common/validation/control-chars.constants';
import {
  EXECUTOR_CONFIG_KEYS,
  FIELD_SPECS,
  isAllowedAtScope,
  MAX_TOOL_PRIORITIES,
  ProfileFieldSpec,
  ProfileValue,
  TOOL_NAME,
  TOOL_PRIORITY_MAX,
  TOOL_PRIORITY_MIN,
} from './profile-fields.constants';
import { ProfileError } from './profile-layers.errors';
import { HOSTED_DEFAULT_ID, ProfileScope } from './profile-scope.constants';

/** What a layer sets, checked: flat name to value, plus the fields it resets. */
export interface CheckedLayer {
  values: Map<string, ProfileValue>;
  resets: string[];
}

/** Flat field values as the nested JSON object a layer stores and shows (executor_config.* nested). */
export function nestFields(values: Map<string, ProfileValue>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of [...values].sort(([a], [b]) => a.localeCompare(b))) {
    if (name.startsWith('executor_config.')) {
      const config = (out.executor_config ??= {}) as Record<string, unknown>;
      config[name.slice('executor_config.'.length)] = value;
    } else {
      out[name] = value;
    }
  }
  return out;
}

/** Stored nested fields back to flat names (the stored JSON was checked when written). */
export function flattenStored(fields: Record<string, unknown>): Map<string, ProfileValue> {
  const out = new Map<string, ProfileValue>();
  for (const [key, value] of Object.entries(fields)) {
    if (key === 'executor_config' && value && typeof value === 'object') {
      for (const [sub, v] of Object.entries(value)) out.set(`executor_config.${sub}`, v as ProfileValue);
    } else {
      out.set(key, value as ProfileValue);
    }
  }
  return out;
}

/**
 * Checks the fields a layer of `scope` is about to store, and refuses (never
 * drops) anything wrong: an unknown field, a field not allowed at the scope,
 * null, a value of the wrong type or out of range, a secret-shaped string, or a
 * machine-local path outside executor_config.* at project or session scope.
 * Each refusal names the field, never the value.
 */
export function checkLayerFields(scope: ProfileScope, fields: Record<string, unknown>, resetFields: string[] = []): CheckedLayer {
  const values = new Map<string, ProfileValue>();
  for (const [key, raw] of Object.entries(fields)) {
    if (key === 'executor_config') {
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        throw ProfileError.invalidField('fields.executor_config', 'fields.executor_config must be an object of executor settings');
      }
      for (const [sub, value] of Object.entries(raw as Record<string, unknown>)) {
        if (!EXECUTOR_CONFIG_KEYS.includes(sub)) throw ProfileError.invalidField(`fields.executor_config.${sub}`, `unknown field fields.executor_config.${sub}`);
        values.set(`executor_config.${sub}`, checkValue(scope, FIELD_SPECS.get(`executor_config.${sub}`) as ProfileFieldSpec, value));
      }
      continue;
    }
    const spec = FIELD_SPECS.get(key);
    if (!spec || key.startsWith('executor_config.')) throw ProfileError.invalidField(`fields.${key}`, `unknown field fields.${key}`);
    values.set(key, checkValue(scope, spec, raw));
  }
  const resets = [...new Set(resetFields)].sort();
  for (const name of resets) {
    const spec = FIELD_SPECS.get(name);
    if (!spec || spec.name === 'hosted_default_id') throw ProfileError.invalidField('reset_fields', `reset_fields names an unknown field: ${name}`);
    checkScope(scope, spec, 'reset_fields');
    if (values.has(name)) throw ProfileError.invalidField(`fields.${name}`, `fields.${name} is both set and listed in reset_fields`);
  }
  return { values, resets };
}

function checkScope(scope: ProfileScope, spec: ProfileFieldSpec, label: string) {
  if (scope === 'project' && spec.legacy) {
    throw ProfileError.fieldNotAllowed(
      label,
      `${label === 'reset_fields' ? `reset_fields: ${spec.name}` : label} is a project setting: change it with PATCH /projects/{project_id}/settings (update_project_settings); a project layer holds only tool_priority_map, capability_manifest_ref and claim_verification_mode`,
    );
  }
  if (!isAllowedAtScope(spec, scope)) {
    throw ProfileError.fieldNotAllowed(
      label,
      `${label === 'reset_fields' ? `reset_fields: ${spec.name}` : label} may only be set at ${spec.scopes?.join(' or ')} scope, not at ${scope} scope`,
    );
  }
}

function checkValue(scope: ProfileScope, spec: ProfileFieldSpec, raw: unknown): ProfileValue {
  const field = `fields.${spec.name}`;
  checkScope(scope, spec, field);
  if (raw === null || raw === undefined) {
    throw ProfileError.invalidField(field, `${field} must not be null: leave it out to inherit it, or list it in reset_fields to put it back to Baton's default`);
  }
  // A secret is refused as a secret even when the value is malformed in other ways too.
  for (const text of stringsOf(raw as ProfileValue)) {
    const secret = findSecret(text);
    if (secret) throw ProfileError.secretValue(field, secret);
  }
  const value = checkType(field, spec, raw);
  for (const text of stringsOf(value)) guardText(scope, spec.name, field, text);
  return value;
}

function checkType(field: string, spec: ProfileFieldSpec, raw: unknown): ProfileValue {
  switch (spec.kind) {
    case 'boolean':
      if (typeof raw !== 'boolean') throw ProfileError.invalidField(field, `${field} must be a boolean`);
      return raw;
    case 'integer':
      if (typeof raw !== 'number' || !Number.isInteger(raw)) throw ProfileError.invalidField(field, `${field} must be an integer`);
      if (raw < (spec.min as number) || raw > (spec.max as number)) {
        throw ProfileError.invalidField(field, `${field} must be between ${spec.min} and ${spec.max}`);
      }
      return raw;
    case 'enum':
      if (typeof raw !== 'string' || !spec.values?.includes(raw)) throw ProfileError.invalidField(field, `${field} must be one of: ${spec.values?.join(', ')}`);
      return raw;
    case 'text':
      return checkText(field, raw, spec.maxLength as number);
    case 'manifest_ref':
      return checkManifestRef(field, checkText(field, raw, spec.maxLength as number));
    case 'hosted_default_id':
      if (typeof raw !== 'string' || !HOSTED_DEFAULT_ID.test(raw)) {
        throw ProfileError.invalidField(field, `${field} must be a hosted_default id (lower-case letters, digits, '.', '_' or '-', at most 63)`);
      }
      return raw;
    case 'tool_priority_map':
      return checkToolPriorityMap(field, raw);
    default:
      throw new Error(`unhandled field kind ${String(spec.kind)}`);
  }
}

function checkText(field: string, raw: unknown, maxLength: number): string {
  if (typeof raw !== 'string') throw ProfileError.invalidField(field, `${field} must be a string`);
  if (raw.trim() === '') throw ProfileError.invalidField(field, `${field} must not be empty`);
  if (raw.length > maxLength) throw ProfileError.invalidField(field, `${field} must be at most ${maxLength} characters`);
  if (!CONTROL_CHARS.oneLine.test(raw)) throw ProfileError.invalidField(field, `${field} must not contain control characters`);
  return raw;
}

/** A repository-relative path or an http(s) URL without credentials. */
function checkManifestRef(field: string, value: string): string {
  if (value.includes('://')) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw ProfileError.invalidField(field, `${field} must be a repository-relative path or an http(s) URL`);
    }
    if (url.protocol === 'file:') return value; // refused below as a machine-local path
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw ProfileError.invalidField(field, `${field} must be a repository-relative path or an http(s) URL`);
    }
    return value;
  }
  if (value.split(/[\\/]/).includes('..')) throw ProfileError.invalidField(field, `${field} must stay inside the repository (no '..' segments)`);
  return value;
}

function checkToolPriorityMap(field: string, raw: unknown): Record<string, number> {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw ProfileError.invalidField(field, `${field} must be an object of tool name to priority`);
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAX_TOOL_PRIORITIES) throw ProfileError.invalidField(field, `${field} may hold at most ${MAX_TOOL_PRIORITIES} tools`);
  const out: Record<string, number> = {};
  for (const [tool, priority] of entries.sort(([a], [b]) => a.localeCompare(b))) {
    if (!TOOL_NAME.test(tool)) {
      throw ProfileError.invalidField(field, `${field} keys must be tool names (letters, digits and _ . : * / -, at most 128)`);
    }
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < TOOL_PRIORITY_MIN || priority > TOOL_PRIORITY_MAX) {
      throw ProfileError.invalidField(`${field}.${tool}`, `${field}.${tool} must be an integer from ${TOOL_PRIORITY_MIN} to ${TOOL_PRIORITY_MAX}`);
    }
    out[tool] = priority;
  }
  return out;
}

/** The strings a value holds: itself, or an object's keys and string values. */
function stringsOf(value: ProfileValue): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return [...Object.keys(value), ...Object.values(value as Record<string, unknown>).filter((v): v is string => typeof v === 'string')];
  }
  return [];
}

/**
 * Secret-shaped text is refused everywhere. A machine-local path is refused
 * except in executor_config.* at project or session scope (spec §2 rule 2).
 */
export function guardText(scope: ProfileScope, name: string, field: string, text: string): void {
  const secret = findSecret(text);
  if (secret) throw ProfileError.secretValue(field, secret);
  const pathAllowed = name.startsWith('executor_config.') && (scope === 'project' || scope === 'session');
  if (pathAllowed) return;
  const path = isMachineLocalPath(text);
  if (path) throw ProfileError.machineLocalPath(field, path);
}
