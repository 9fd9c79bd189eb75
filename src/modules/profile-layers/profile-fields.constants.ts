import { ProfileScope, RestartComponent, RestartLevel } from './profile-scope.constants';

/** A field's value: what JSON a layer may hold for it. */
export type ProfileValue = boolean | number | string | Record<string, number> | null;

export type FieldKind = 'boolean' | 'integer' | 'enum' | 'text' | 'tool_priority_map' | 'manifest_ref' | 'hosted_default_id';

export interface ProfileFieldSpec {
  /** Flat name: `executor_config.test_min` for a sub-field. */
  name: string;
  kind: FieldKind;
  min?: number;
  max?: number;
  values?: readonly string[];
  maxLength?: number;
  /** What a field resolves to when no layer sets it. */
  defaultValue: ProfileValue;
  /** One of the seven legacy settings: set at project scope through PATCH /projects/{id}/settings. */
  legacy: boolean;
  /** Scopes that may set it (all when absent). */
  scopes?: readonly ProfileScope[];
  /** Narrow-only dial: ranks a value, higher is tighter. */
  tightness?: (value: ProfileValue) => number;
  /** Which part of an executor a change reaches, and what it needs to take effect. */
  component: RestartComponent;
  level: RestartLevel;
}

export const CLAIM_VERIFICATION_MODES = ['off', 'advisory', 'strict'] as const;
export const EXECUTION_MODE_VALUES = ['interactive', 'autonomous'] as const;

/** tool_priority_map: tool name (or `server:*` pattern) to a priority from 0 to 100, higher first. */
export const TOOL_NAME = /^[A-Za-z0-9_.:*/-]{1,128}$/;
export const MAX_TOOL_PRIORITIES = 200;
export const TOOL_PRIORITY_MIN = 0;
export const TOOL_PRIORITY_MAX = 100;

const PATH_SCOPES: readonly ProfileScope[] = ['project', 'session'];

export const PROFILE_FIELDS: readonly ProfileFieldSpec[] = [
  { name: 'max_pinned_decisions', kind: 'integer', min: 1, max: 500, defaultValue: 20, legacy: true, component: 'general', level: 'hot_reload' },
  {
    name: 'hitl_auto_answer',
    kind: 'boolean',
    defaultValue: false,
    legacy: true,
    // Off is tighter: a human answers.
    tightness: (v) => (v === true ? 0 : 1),
    component: 'general',
    level: 'hot_reload',
  },
  { name: 'auto_worktrees', kind: 'boolean', defaultValue: false, legacy: true, component: 'general', level: 'hot_reload' },
  {
    name: 'require_merge_approval',
    kind: 'boolean',
    defaultValue: false,
    legacy: true,
    // On is tighter: a human approves merges.
    tightness: (v) => (v === true ? 1 : 0),
    component: 'general',
    level: 'hot_reload',
  },
  // On unless turned off: the codebase map worked before the setting did anything.
  { name: 'code_intel_enabled', kind: 'boolean', defaultValue: true, legacy: true, component: 'capability', level: 'explicit_refresh_required' },
  {
    name: 'execution_mode',
    kind: 'enum',
    values: EXECUTION_MODE_VALUES,
    // Autonomous unless set: queued work was dispatched to executors before the setting did anything.
    defaultValue: 'autonomous',
    legacy: true,
    component: 'general',
    level: 'explicit_refresh_required',
  },
  {
    name: 'executor_config.repo_path',
    kind: 'text',
    maxLength: 1024,
    defaultValue: null,
    legacy: true,
    scopes: PATH_SCOPES,
    component: 'general',
    level: 'restart_required',
  },
  {
    name: 'executor_config.test_min',
    kind: 'integer',
    min: 0,
    max: 10_000,
    defaultValue: null,
    legacy: true,
    // More required tests is tighter; unset counts as 0.
    tightness: (v) => (typeof v === 'number' ? v : 0),
    component: 'general',
    level: 'hot_reload',
  },
  { name: 'executor_config.test_command', kind: 'text', maxLength: 500, defaultValue: null, legacy: true, component: 'general', level: 'hot_reload' },
  { name: 'executor_config.max_parallel', kind: 'integer', min: 1, max: 64, defaultValue: null, legacy: true, component: 'general', level: 'hot_reload' },
  // How the checkout spells files is the project's, not a session's: sessions must agree on lock keys.
  {
    name: 'executor_config.case_insensitive_paths',
    kind: 'boolean',
    defaultValue: null,
    legacy: true,
    scopes: ['hosted_default', 'workspace', 'project'],
    component: 'general',
    level: 'hot_reload',
  },
  { name: 'tool_priority_map', kind: 'tool_priority_map', defaultValue: {}, legacy: false, component: 'connector', level: 'hot_reload' },
  {
    name: 'capability_manifest_ref',
    kind: 'manifest_ref',
    maxLength: 512,
    defaultValue: null,
    legacy: false,
    component: 'capability',
    level: 'explicit_refresh_required',
  },
  {
    name: 'claim_verification_mode',
    kind: 'enum',
    values: CLAIM_VERIFICATION_MODES,
    defaultValue: 'off',
    legacy: false,
    // off < advisory < strict
    tightness: (v) => CLAIM_VERIFICATION_MODES.indexOf(v as (typeof CLAIM_VERIFICATION_MODES)[number]),
    component: 'general',
    level: 'hot_reload',
  },
];

/**
 * Not a setting but a choice: which hosted_default layer the tenant resolves
 * against (default `global`). Only the workspace layer may set it.
 */
export const HOSTED_DEFAULT_SELECTOR: ProfileFieldSpec = {
  name: 'hosted_default_id',
  kind: 'hosted_default_id',
  defaultValue: null,
  legacy: false,
  scopes: ['workspace'],
  component: 'general',
  level: 'hot_reload',
};

export const FIELD_SPECS: ReadonlyMap<string, ProfileFieldSpec> = new Map([...PROFILE_FIELDS, HOSTED_DEFAULT_SELECTOR].map((spec) => [spec.name, spec]));

/** Sub-fields of the executor_config object, without the prefix. */
export const EXECUTOR_CONFIG_KEYS = PROFILE_FIELDS.filter((f) => f.name.startsWith('executor_config.')).map((f) => f.name.slice('executor_config.'.length));

export const LEGACY_FIELD_NAMES = PROFILE_FIELDS.filter((f) => f.legacy).map((f) => f.name);
export const NARROW_ONLY_FIELDS = PROFILE_FIELDS.filter((f) => f.tightness).map((f) => f.name);

export function isAllowedAtScope(spec: ProfileFieldSpec, scope: ProfileScope): boolean {
  return !spec.scopes || spec.scopes.includes(scope);
}
