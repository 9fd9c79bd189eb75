import { randomUUID } from 'node:crypto';
import { EntityManager, EntityTarget } from 'typeorm';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { ProfileValue } from './profile-fields.constants';
import { flattenStored, nestFields } from './profile-field-validation.util';
import { ProfileLayerColumns } from './profile-layer.columns';
import { ProfileLayer } from './profile-layer.entity';
import { findLayer } from './profile-layer-rows.util';
import { LayerProvenance } from './profile-layer.view';
import { ProfileError, ProfileErrorCode } from './profile-layers.errors';
import { canonicalJson, reportFor } from './profile-resolution.util';
import { LayerStatus, ProfileScope, RestartReport } from './profile-scope.constants';

export interface LayerWrite {
  scopeType: ProfileScope;
  scopeId: string;
  projectId: string | null;
  values: Map<string, ProfileValue>;
  resets: string[];
  provenance: LayerProvenance;
  expectedRevision?: number;
  /** hosted_default: the status a new layer starts in (draft). */
  newStatus: LayerStatus | null;
  /** hosted_default: revisions continue after a reset, so a new layer may not start at 1. */
  firstRevision: number;
  now: Date;
  /** The table: the tenant's profile_layers, or the control plane's hosted_profile_layers. */
  target?: EntityTarget<ProfileLayerColumns>;
}

export interface WriteOutcome {
  row: ProfileLayerColumns;
  previous: ProfileLayerColumns | null;
  /** False for an identical re-save: the revision stays. */
  changed: boolean;
  /** What the fields this write changed need to take effect. */
  restart_report: RestartReport;
}

/**
 * Replaces a scope's layer wholesale, under optimistic concurrency: with
 * `expectedRevision`, a layer that moved on (or appeared) is refused with
 * STALE_REVISION; the update itself is conditional on the revision read, so a
 * concurrent save that lands in between is refused too. An identical re-save
 * changes nothing and keeps the revision.
 */
export async function writeLayer(m: EntityManager, input: LayerWrite): Promise<WriteOutcome> {
  const target = input.target ?? ProfileLayer;
  const current = await findLayer(m, input.scopeType, input.scopeId, target);
  const currentRevision = current?.revision ?? 0;
  if (input.expectedRevision !== undefined && input.expectedRevision !== currentRevision) {
    throw ProfileError.staleRevision(input.expectedRevision, currentRevision);
  }
  const fields = canonicalJson(nestFields(input.values));
  const resets = JSON.stringify(input.resets);
  const provenance = JSON.stringify(input.provenance);
  if (current && current.fields === fields && current.reset_fields === resets && sameReason(current, input.provenance)) {
    return { row: current, previous: current, changed: false, restart_report: reportFor([]) };
  }
  const changes = changedFields(current, input.values, input.resets);
  if (!current) {
    const row: ProfileLayerColumns = {
      id: randomUUID(),
      scope_type: input.scopeType,
      scope_id: input.scopeId,
      project_id: input.projectId,
      status: input.newStatus,
      fields,
      reset_fields: resets,
      provenance,
      revision: input.firstRevision,
      created_at: input.now,
      updated_at: input.now,
    };
    await m.insert(target, row);
    return { row, previous: null, changed: true, restart_report: reportFor(changes) };
  }
  const row: ProfileLayerColumns = { ...current, fields, reset_fields: resets, provenance, revision: current.revision + 1, updated_at: input.now };
  const result = await m.update(
    target,
    { id: current.id, revision: current.revision },
    { fields, reset_fields: resets, provenance, revision: row.revision, updated_at: input.now },
  );
  if (!result.affected) throw ProfileError.staleRevision(input.expectedRevision ?? currentRevision, currentRevision + 1);
  return { row, previous: current, changed: true, restart_report: reportFor(changes) };
}

function sameReason(current: ProfileLayerColumns, next: LayerProvenance): boolean {
  const before = JSON.parse(current.provenance) as LayerProvenance;
  return (before.override_reason ?? null) === (next.override_reason ?? null) && canonicalJson(before.cloned_from) === canonicalJson(next.cloned_from);
}

/** Flat names whose value, presence or reset differs between the stored layer and the new one. */
function changedFields(current: ProfileLayerColumns | null, values: Map<string, ProfileValue>, resets: string[]): string[] {
  const before = current ? flattenStored(JSON.parse(current.fields) as Record<string, unknown>) : new Map<string, ProfileValue>();
  const beforeResets = new Set(current ? (JSON.parse(current.reset_fields) as string[]) : []);
  const names = new Set([...before.keys(), ...values.keys(), ...beforeResets, ...resets]);
  return [...names].filter((name) => canonicalJson(before.get(name)) !== canonicalJson(values.get(name)) || beforeResets.has(name) !== resets.includes(name));
}

/**
 * Runs a save. Two saves racing to create the same layer meet on its unique
 * key; a save whose conditional update lost meets a moved revision. With
 * expected_revision the loser gets STALE_REVISION (with the current revision);
 * without it the last writer wins, so the save is simply tried again.
 */
export async function withSaveRetry<T>(expected: number | undefined, attempt: () => Promise<T>, currentRevision: () => Promise<number>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const stale = error instanceof ProfileError && error.code === ProfileErrorCode.StaleRevision;
      if (!stale && !isUniqueViolation(error)) throw error;
      if (expected === undefined && tries < 3) continue;
      if (stale) throw error;
      throw ProfileError.staleRevision(expected ?? 0, await currentRevision());
    }
  }
}
