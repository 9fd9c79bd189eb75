import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { findSecret } from '../../../libs/secrets';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { Clock } from '../../common/clock';
import { HostedDefaultsStore } from '../profile-layers/hosted-defaults.store';
import type { PathRules } from '../sessions/file-path.util';
import { EXECUTOR_CONFIG_KEYS, LEGACY_FIELD_NAMES, ProfileValue } from '../profile-layers/profile-fields.constants';
import { guardText } from '../profile-layers/profile-field-validation.util';
import { LayerProvenance } from '../profile-layers/profile-layer.view';
import { ProfileError } from '../profile-layers/profile-layers.errors';
import { FieldResolution, loosenedBy } from '../profile-layers/profile-resolution.util';
import { ProfileResolver } from '../profile-layers/profile-resolver.service';
import { requireProject } from '../projects/require-project.util';
import { UpdateProjectSettingsDto } from './dto/update-project-settings.dto';
import { DEFAULT_PROJECT_SETTINGS, ExecutionMode, ProjectSettings } from './project-settings.constants';
import { ProjectSettingsRow } from './project-settings.entity';
import { legacyValues, readSettingsRow } from './project-settings-layer.util';

const SCALAR_FIELDS = ['max_pinned_decisions', 'hitl_auto_answer', 'auto_worktrees', 'require_merge_approval', 'code_intel_enabled', 'execution_mode'] as const;

/**
 * The per-project settings every module reads (max_pinned_decisions,
 * hitl_auto_answer, ...): the seven legacy fields of the project's profile.
 * What a module reads is what the project resolves to for everyone working on
 * it (hosted_default, workspace, then the project's own settings), so the
 * settings route and the effective profile always agree.
 */
@Injectable()
export class ProjectSettingsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly resolver: ProfileResolver,
    private readonly hostedDefaults: HostedDefaultsStore,
    private readonly events: RealtimeEvents,
  ) {}

  async get(projectId: string): Promise<ProjectSettings> {
    await this.hostedDefaults.warm();
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return this.read(m, projectId);
    });
  }

  /** The settings inside a caller's transaction (no project check: the caller has done it). */
  async read(m: EntityManager, projectId: string): Promise<ProjectSettings> {
    return toSettings(await this.resolver.projectFields(m, projectId));
  }

  /** How the project spells its files, for file locks and declared file resources. */
  async pathRules(m: EntityManager, projectId: string): Promise<PathRules> {
    const { executor_config } = await this.read(m, projectId);
    return { repoRoot: executor_config.repo_path ?? null, caseInsensitive: executor_config.case_insensitive_paths === true };
  }

  /**
   * Changes the fields given; null puts a field back to what the layers below
   * the project give. executor_config is replaced as a whole object. Loosening
   * a narrow-only dial set by the workspace or hosted default needs
   * override_reason; secrets are refused, a path is allowed in executor_config.
   */
  async update(projectId: string, input: UpdateProjectSettingsDto): Promise<ProjectSettings> {
    const patch = toPatch(input);
    if (input.override_reason) {
      const secret = findSecret(input.override_reason);
      if (secret) throw ProfileError.secretValue('override_reason', secret);
    }
    for (const [name, value] of patch) if (typeof value === 'string') guardText('project', name, name, value);
    await this.hostedDefaults.warm();
    const settings = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const row = await readSettingsRow(m, projectId);
      const values = row ? legacyValues(row) : new Map<string, ProfileValue>();
      if (input.executor_config !== undefined) for (const key of EXECUTOR_CONFIG_KEYS) values.delete(`executor_config.${key}`);
      for (const [name, value] of patch) {
        if (value === null) values.delete(name);
        else values.set(name, value);
      }
      const changed = new Map([...patch].filter(([, v]) => v !== null) as [string, ProfileValue][]);
      const below = await this.resolver.below(m, 'project', { projectId });
      const loosened = loosenedBy({ values: changed, resets: [] }, below);
      if (loosened.length > 0 && !input.override_reason) throw ProfileError.looseningNotAllowed(loosened[0].field, 'project', loosened[0].source);
      const previous = row?.provenance ? (JSON.parse(row.provenance) as LayerProvenance) : null;
      // An accepted loosening stays accepted when a later change touches other fields.
      const provenance: LayerProvenance = {
        saved_at: this.clock.now().toISOString(),
        override_reason: input.override_reason ?? previous?.override_reason ?? null,
        loosened: [...new Set([...(previous?.loosened ?? []).filter((f) => values.has(f)), ...loosened.map((l) => l.field)])].sort(),
        cloned_from: null,
      };
      await m.upsert(ProjectSettingsRow, toRow(projectId, values, provenance, (row?.revision ?? 0) + 1, this.clock.now()), ['project_id']);
      return this.read(m, projectId);
    });
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'project_settings_changed', data: { project_id: projectId, settings } });
    return settings;
  }
}

/** The PATCH body as flat field names: a value to set, or null to stop setting it at the project. */
function toPatch(input: UpdateProjectSettingsDto): Map<string, ProfileValue> {
  const patch = new Map<string, ProfileValue>();
  for (const name of SCALAR_FIELDS) if (input[name] !== undefined) patch.set(name, input[name] as ProfileValue);
  if (input.executor_config === null) return patch;
  if (input.executor_config !== undefined) {
    for (const key of EXECUTOR_CONFIG_KEYS) {
      const value = (input.executor_config as Record<string, unknown>)[key];
      if (value !== undefined && value !== null) patch.set(`executor_config.${key}`, value as ProfileValue);
    }
  }
  return patch;
}

/** Every column holds a value; set_fields says which ones the project itself sets. */
function toRow(projectId: string, values: Map<string, ProfileValue>, provenance: LayerProvenance, revision: number, now: Date): ProjectSettingsRow {
  const get = <K extends keyof ProjectSettings>(name: K) => (values.has(name) ? values.get(name) : DEFAULT_PROJECT_SETTINGS[name]) as ProjectSettings[K];
  const executor: Record<string, ProfileValue> = {};
  for (const key of EXECUTOR_CONFIG_KEYS) if (values.has(`executor_config.${key}`)) executor[key] = values.get(`executor_config.${key}`) as ProfileValue;
  return {
    project_id: projectId,
    max_pinned_decisions: get('max_pinned_decisions'),
    hitl_auto_answer: get('hitl_auto_answer'),
    auto_worktrees: get('auto_worktrees'),
    require_merge_approval: get('require_merge_approval'),
    code_intel_enabled: get('code_intel_enabled'),
    execution_mode: get('execution_mode'),
    executor_config: JSON.stringify(executor),
    set_fields: JSON.stringify(LEGACY_FIELD_NAMES.filter((name) => values.has(name))),
    provenance: JSON.stringify(provenance),
    revision,
    updated_at: now,
  };
}

/** The seven legacy settings from a resolution; executor_config holds the sub-fields some layer sets. */
function toSettings(fields: Map<string, FieldResolution>): ProjectSettings {
  const value = (name: string) => fields.get(name)?.value;
  const executor: Record<string, unknown> = {};
  for (const key of EXECUTOR_CONFIG_KEYS) {
    const v = value(`executor_config.${key}`);
    if (v !== null && v !== undefined) executor[key] = v;
  }
  return {
    max_pinned_decisions: value('max_pinned_decisions') as number,
    hitl_auto_answer: value('hitl_auto_answer') as boolean,
    auto_worktrees: value('auto_worktrees') as boolean,
    require_merge_approval: value('require_merge_approval') as boolean,
    code_intel_enabled: value('code_intel_enabled') as boolean,
    execution_mode: value('execution_mode') as ExecutionMode,
    executor_config: executor as ProjectSettings['executor_config'],
  };
}
