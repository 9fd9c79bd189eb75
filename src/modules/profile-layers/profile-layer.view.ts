import { ProfileLayerColumns } from './profile-layer.columns';
import { ProfileLayerRevisionColumns, RevisionAction } from './profile-layer-revision.columns';
import { LayerStatus, ProfileScope } from './profile-scope.constants';

/** Why and how a layer was last written. */
export interface LayerProvenance {
  saved_at: string;
  /** Given when the save loosened a narrow-only dial (or may loosen one later). */
  override_reason: string | null;
  /** Narrow-only dials this save set looser than the layers below it. */
  loosened: string[];
  cloned_from: { scope_type: ProfileScope; scope_id: string; revision: number } | null;
}

export interface ProfileLayerView {
  scope_type: ProfileScope;
  scope_id: string;
  /** hosted_default only; null for other scopes. */
  status: LayerStatus | null;
  revision: number;
  fields: Record<string, unknown>;
  reset_fields: string[];
  provenance: LayerProvenance;
  created_at: string;
  updated_at: string;
}

export interface ProfileLayerRevisionView {
  scope_id: string;
  revision: number;
  action: RevisionAction;
  status: LayerStatus;
  fields: Record<string, unknown>;
  reset_fields: string[];
  provenance: LayerProvenance;
  /** Who made the change: hosted, an admin's address, `admin password`, or `operator workspace`; null self-hosted. */
  author: string | null;
  created_at: string;
}

export function toLayerView(layer: ProfileLayerColumns): ProfileLayerView {
  return {
    scope_type: layer.scope_type,
    scope_id: layer.scope_id,
    status: layer.status,
    revision: layer.revision,
    fields: JSON.parse(layer.fields) as Record<string, unknown>,
    reset_fields: JSON.parse(layer.reset_fields) as string[],
    provenance: JSON.parse(layer.provenance) as LayerProvenance,
    created_at: layer.created_at.toISOString(),
    updated_at: layer.updated_at.toISOString(),
  };
}

export function toRevisionView(row: ProfileLayerRevisionColumns): ProfileLayerRevisionView {
  return {
    scope_id: row.scope_id,
    revision: row.revision,
    action: row.action,
    status: row.status,
    fields: JSON.parse(row.fields) as Record<string, unknown>,
    reset_fields: JSON.parse(row.reset_fields) as string[],
    provenance: JSON.parse(row.provenance) as LayerProvenance,
    author: row.author ?? null,
    created_at: row.created_at.toISOString(),
  };
}
