import { createHash } from 'node:crypto';
import { FIELD_SPECS, PROFILE_FIELDS, ProfileValue } from './profile-fields.constants';
import { ProfileScope, RESTART_COMPONENTS, RESTART_LEVELS, RestartReport } from './profile-scope.constants';

/** One layer as resolution sees it. */
export interface LayerInput {
  scope_type: ProfileScope;
  scope_id: string;
  values: Map<string, ProfileValue>;
  /** Fields this layer puts back to Baton's default. */
  resets: string[];
  /** Given when saved: this layer's narrow-only dials may be looser than the layers below. */
  override_reason: string | null;
}

export interface FieldResolution {
  value: ProfileValue;
  /** The scope whose layer gave the value, or `default` when no layer sets it. */
  source: ProfileScope | 'default';
  /** Present when the value is looser than a less specific layer's: why that was allowed. */
  override_reason?: string;
}

/** A narrow-only dial a layer tried to loosen without an override_reason: the tighter value stayed. */
export interface IgnoredLoosening {
  field: string;
  scope_type: ProfileScope;
  value: ProfileValue;
  kept_from: ProfileScope;
}

export interface Resolution {
  fields: Map<string, FieldResolution>;
  ignored: IgnoredLoosening[];
}

/** Baton's defaults: what a project with no layer rows resolves to. */
export function defaultResolution(): Map<string, FieldResolution> {
  return new Map(PROFILE_FIELDS.map((spec) => [spec.name, { value: clone(spec.defaultValue), source: 'default' as const }]));
}

/**
 * Applies layers from least to most specific, field by field: a layer's value
 * (or its reset to the default) replaces what the layers below gave. A
 * narrow-only dial is only replaced by a looser value when the layer carries an
 * override_reason; otherwise the tighter value stays, whatever order the layers
 * were written in. Baton's own defaults are not a policy: any layer may move
 * away from them.
 */
export function resolveLayers(layers: LayerInput[], start: Map<string, FieldResolution> = defaultResolution()): Resolution {
  const fields = new Map(start);
  const ignored: IgnoredLoosening[] = [];
  for (const layer of layers) {
    const changes: [string, ProfileValue][] = [
      ...layer.resets.map((name): [string, ProfileValue] => [name, clone(FIELD_SPECS.get(name)?.defaultValue ?? null)]),
      ...[...layer.values].filter(([name]) => fields.has(name)),
    ];
    for (const [name, value] of changes) {
      const current = fields.get(name) as FieldResolution;
      const looser = current.source !== 'default' && isLooser(name, value, current.value);
      if (looser && !layer.override_reason) {
        ignored.push({ field: name, scope_type: layer.scope_type, value, kept_from: current.source as ProfileScope });
        continue;
      }
      fields.set(name, looser ? { value, source: layer.scope_type, override_reason: layer.override_reason as string } : { value, source: layer.scope_type });
    }
  }
  return { fields, ignored };
}

/** True when `candidate` is looser than `current` for a narrow-only dial (false for other fields). */
export function isLooser(name: string, candidate: ProfileValue, current: ProfileValue): boolean {
  const tightness = FIELD_SPECS.get(name)?.tightness;
  return tightness ? tightness(candidate) < tightness(current) : false;
}

/** The narrow-only dials `layer` would loosen against what the layers below it resolve to. */
export function loosenedBy(layer: Pick<LayerInput, 'values' | 'resets'>, below: Map<string, FieldResolution>): { field: string; source: ProfileScope }[] {
  const changes: [string, ProfileValue][] = [...layer.resets.map((name): [string, ProfileValue] => [name, FIELD_SPECS.get(name)?.defaultValue ?? null]), ...layer.values];
  const out: { field: string; source: ProfileScope }[] = [];
  for (const [name, value] of changes) {
    const current = below.get(name);
    if (!current || current.source === 'default') continue;
    if (isLooser(name, value, current.value)) out.push({ field: name, source: current.source });
  }
  return out;
}

/**
 * What it takes for an executor to pick up the change from `before` to
 * `after`, per component: the largest need among the fields that changed.
 */
export function restartReport(before: Map<string, ProfileValue>, after: Map<string, ProfileValue>): RestartReport {
  const changed = PROFILE_FIELDS.filter((spec) => {
    const a = before.has(spec.name) ? before.get(spec.name) : spec.defaultValue;
    const b = after.has(spec.name) ? after.get(spec.name) : spec.defaultValue;
    return canonicalJson(a) !== canonicalJson(b);
  }).map((spec) => spec.name);
  return reportFor(changed);
}

/** The restart report of a change to the named fields. */
export function reportFor(changedFields: Iterable<string>): RestartReport {
  const report: RestartReport = { tunnel: 'none', connector: 'none', capability: 'none', general: 'none' };
  for (const name of changedFields) {
    const spec = FIELD_SPECS.get(name);
    if (!spec) continue;
    if (RESTART_LEVELS.indexOf(spec.level) > RESTART_LEVELS.indexOf(report[spec.component])) report[spec.component] = spec.level;
  }
  return report;
}

export function needsRestart(report: RestartReport): boolean {
  return RESTART_COMPONENTS.some((c) => report[c] === 'restart_required');
}

/** The identity of a resolution's inputs: changes whenever any participating layer is written. */
export function generationKey(parts: { scope_type: string; scope_id: string; revision: number; status: string | null }[]): string {
  const tuples = parts.map((p) => [p.scope_type, p.scope_id, p.revision, p.status]).sort((x, y) => canonicalJson(x).localeCompare(canonicalJson(y)));
  return createHash('sha256').update(canonicalJson(tuples)).digest('hex');
}

/** JSON with object keys sorted, so equal values compare equal. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

function clone<T>(value: T): T {
  return value && typeof value === 'object' ? (structuredClone(value) as T) : value;
}
