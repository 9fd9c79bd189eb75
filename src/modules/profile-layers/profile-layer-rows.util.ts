import { EntityManager, EntityTarget } from 'typeorm';
import { flattenStored } from './profile-field-validation.util';
import { ProfileLayerColumns } from './profile-layer.columns';
import { ProfileLayer } from './profile-layer.entity';
import { LayerProvenance } from './profile-layer.view';
import { LayerInput } from './profile-resolution.util';
import { ProfileScope } from './profile-scope.constants';

/** A scope's layer, from the tenant's table or (hosted_default of a hosted deployment) the control plane's. */
export function findLayer(
  m: EntityManager,
  scopeType: ProfileScope,
  scopeId: string,
  target: EntityTarget<ProfileLayerColumns> = ProfileLayer,
): Promise<ProfileLayerColumns | null> {
  return m.findOneBy(target, { scope_type: scopeType, scope_id: scopeId });
}

/** A stored layer as resolution sees it. */
export function toLayerInput(row: ProfileLayerColumns): LayerInput {
  const provenance = JSON.parse(row.provenance) as LayerProvenance;
  return {
    scope_type: row.scope_type,
    scope_id: row.scope_id,
    values: flattenStored(JSON.parse(row.fields) as Record<string, unknown>),
    resets: JSON.parse(row.reset_fields) as string[],
    override_reason: provenance.override_reason ?? null,
  };
}

/** The hosted_default a workspace layer selects, or null when it leaves the choice to Baton (`global`). */
export function selectedHostedDefault(workspace: ProfileLayerColumns | null): string | null {
  if (!workspace) return null;
  const id = (JSON.parse(workspace.fields) as Record<string, unknown>).hosted_default_id;
  return typeof id === 'string' ? id : null;
}
