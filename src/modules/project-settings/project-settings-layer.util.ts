import { EntityManager } from 'typeorm';
import { EXECUTOR_CONFIG_KEYS, LEGACY_FIELD_NAMES, ProfileValue } from '../profile-layers/profile-fields.constants';
import { LayerInput } from '../profile-layers/profile-resolution.util';
import { LayerProvenance } from '../profile-layers/profile-layer.view';
import { ProjectSettingsRow } from './project-settings.entity';

/** The project's legacy settings as the project scope of its profile. */
export interface LegacyProjectLayer extends LayerInput {
  revision: number;
  provenance: LayerProvenance | null;
}

export async function readSettingsRow(m: EntityManager, projectId: string): Promise<ProjectSettingsRow | null> {
  return m.findOneBy(ProjectSettingsRow, { project_id: projectId });
}

/** The fields the row sets, by flat name (executor_config.* one by one). */
export function legacyValues(row: ProjectSettingsRow): Map<string, ProfileValue> {
  const executor = JSON.parse(row.executor_config) as Record<string, ProfileValue>;
  const all = new Map<string, ProfileValue>([
    ['max_pinned_decisions', row.max_pinned_decisions],
    ['hitl_auto_answer', Boolean(row.hitl_auto_answer)],
    ['auto_worktrees', Boolean(row.auto_worktrees)],
    ['require_merge_approval', Boolean(row.require_merge_approval)],
    ['code_intel_enabled', Boolean(row.code_intel_enabled)],
    ['execution_mode', row.execution_mode],
  ]);
  for (const key of EXECUTOR_CONFIG_KEYS) {
    if (executor[key] !== undefined && executor[key] !== null) all.set(`executor_config.${key}`, executor[key]);
  }
  const set = row.set_fields === null ? null : new Set(JSON.parse(row.set_fields) as string[]);
  return new Map([...all].filter(([name]) => LEGACY_FIELD_NAMES.includes(name) && (set === null || set.has(name))));
}

export function legacyLayer(projectId: string, row: ProjectSettingsRow): LegacyProjectLayer {
  const provenance = row.provenance ? (JSON.parse(row.provenance) as LayerProvenance) : null;
  return {
    scope_type: 'project',
    scope_id: projectId,
    values: legacyValues(row),
    resets: [],
    override_reason: provenance?.override_reason ?? null,
    revision: row.revision,
    provenance,
  };
}
