import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { StartSessionExtras, StartSessionExtrasInput } from '../../common/extensions/start-session-extras';
import { legacyLayer, readSettingsRow } from '../project-settings/project-settings-layer.util';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { EffectiveProfileQueryDto } from './dto/effective-profile-query.dto';
import { HostedDefaultsStore } from './hosted-defaults.store';
import { ProfileValue } from './profile-fields.constants';
import { ProfileLayerColumns } from './profile-layer.columns';
import { findLayer, selectedHostedDefault, toLayerInput } from './profile-layer-rows.util';
import { ProfileError } from './profile-layers.errors';
import { canonicalJson, FieldResolution, generationKey, IgnoredLoosening, LayerInput, needsRestart, resolveLayers, restartReport } from './profile-resolution.util';
import { GLOBAL_DEFAULT_ID, LayerStatus, LIVE_STATUSES, PROFILE_SCOPES, ProfileScope, RestartReport, WORKSPACE_SINGLETON } from './profile-scope.constants';
import { ProfileSessionBaseline } from './profile-session-baseline.entity';
import { UserLayerKeys } from './user-layer-keys.service';

/** Whose profile is resolved: a project, and optionally the person and the session working on it. */
export interface ProfileTarget {
  projectId?: string;
  userId?: string;
  sessionId?: string;
}

/** Which hosted_default the tenant resolves against, and whether it takes part. */
export interface HostedSelection {
  scope_id: string;
  /** `workspace` when the workspace layer chose it (hosted_default_id), `default` for `global`. */
  selected_by: 'workspace' | 'default';
  /** null when no such layer exists. */
  status: LayerStatus | null;
  applied: boolean;
}

export interface LayerRef {
  scope_type: ProfileScope | 'project_settings';
  scope_id: string;
  revision: number;
  status: LayerStatus | null;
}

export interface CollectedProfile {
  layers: LayerInput[];
  refs: LayerRef[];
  hosted: HostedSelection;
}

export interface EffectiveProfile {
  project_id: string;
  session_id: string | null;
  user_id: string | null;
  executable: boolean;
  degraded: boolean;
  degraded_reasons: string[];
  generation_key: string;
  hosted_default: HostedSelection;
  /** Each field's value and the scope it came from (`default` when no layer sets it). */
  fields: Record<string, FieldResolution>;
  ignored_loosenings: IgnoredLoosening[];
  layers: LayerRef[];
  restart_required: boolean;
  restart_report: RestartReport;
}

const NO_RESTART: RestartReport = { tunnel: 'none', connector: 'none', capability: 'none', general: 'none' };

/**
 * Resolves profiles: the layers of the five scopes, least specific first,
 * field by field. Also what `start_session` and handoffs carry (the `profile`
 * extra) and the baseline a session's restart report is measured against.
 */
@Injectable()
export class ProfileResolver implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly hostedDefaults: HostedDefaultsStore,
    private readonly extras: StartSessionExtras,
    private readonly userKeys: UserLayerKeys,
  ) {}

  onModuleInit() {
    this.extras.register('profile', (m, input) => this.startSessionExtra(m, input));
  }

  /** GET /projects/{id}/effective-profile and get_effective_profile. */
  async effective(input: EffectiveProfileQueryDto): Promise<EffectiveProfile> {
    await this.hostedDefaults.warm();
    return this.db.transaction(async (m) => {
      await requireProject(m, input.project_id);
      let userId = input.user_id;
      if (input.session_id) {
        const session = await m.findOneBy(Session, { id: input.session_id });
        if (!session || session.project_id !== input.project_id) throw ProfileError.scopeNotFound('session', input.session_id);
        if (userId !== undefined && userId !== session.human_id) {
          throw ProfileError.invalidScope(`user_id must be the human_id of session ${session.id} (${session.human_id}) or be left out`);
        }
        userId = session.human_id;
      }
      await this.userKeys.carryOverCaller(m);
      return this.effectiveIn(m, { projectId: input.project_id, sessionId: input.session_id, userId });
    });
  }

  /**
   * The effective profile inside the caller's transaction. With a session, the
   * first resolution records the session's baseline, and later ones report
   * what a change since then needs (restart_report).
   */
  async effectiveIn(m: EntityManager, target: ProfileTarget & { projectId: string }): Promise<EffectiveProfile> {
    const collected = await this.collect(m, target);
    const { fields, ignored } = resolveLayers(collected.layers);
    const values = new Map([...fields].map(([name, r]) => [name, r.value]));
    const key = generationKey(collected.refs);
    const report = target.sessionId ? await this.sessionRestartReport(m, target.sessionId, target.projectId, key, values) : { ...NO_RESTART };
    const health = healthOf(collected.hosted);
    return {
      project_id: target.projectId,
      session_id: target.sessionId ?? null,
      user_id: target.userId ?? null,
      executable: health.executable,
      degraded: health.reasons.length > 0,
      degraded_reasons: health.reasons,
      generation_key: key,
      hosted_default: collected.hosted,
      fields: Object.fromEntries(fields),
      ignored_loosenings: ignored,
      layers: collected.refs,
      restart_required: needsRestart(report),
      restart_report: report,
    };
  }

  /** What one field resolves to for a session of a project (its human's layer and its own included). */
  async sessionField(m: EntityManager, projectId: string, session: { id: string; human_id: string }, name: string): Promise<ProfileValue | undefined> {
    const { fields } = resolveLayers((await this.collect(m, { projectId, sessionId: session.id, userId: session.human_id })).layers);
    return fields.get(name)?.value;
  }

  /** What the project's legacy settings resolve to for everyone working on it (no user, no session). */
  async projectFields(m: EntityManager, projectId: string): Promise<Map<string, FieldResolution>> {
    return resolveLayers((await this.collect(m, { projectId })).layers).fields;
  }

  /**
   * What the layers less specific than `scope` resolve to: the values a save at
   * `scope` may only tighten. `hostedOverride` is the hosted_default a
   * workspace save is about to select.
   */
  async below(m: EntityManager, scope: ProfileScope, target: ProfileTarget, hostedOverride?: string | null): Promise<Map<string, FieldResolution>> {
    return resolveLayers((await this.collect(m, target, scope, hostedOverride)).layers).fields;
  }

  /** The layers that take part for `target`, least specific first, stopping before `upTo`. */
  async collect(m: EntityManager, target: ProfileTarget, upTo?: ProfileScope, hostedOverride?: string | null): Promise<CollectedProfile> {
    const include = (scope: ProfileScope) => upTo === undefined || PROFILE_SCOPES.indexOf(scope) < PROFILE_SCOPES.indexOf(upTo);
    const layers: LayerInput[] = [];
    const refs: LayerRef[] = [];
    const add = (row: ProfileLayerColumns | null) => {
      if (!row) return;
      layers.push(toLayerInput(row));
      refs.push(refOf(row));
    };
    const workspace = await findLayer(m, 'workspace', WORKSPACE_SINGLETON);
    const chosen = hostedOverride !== undefined ? hostedOverride : selectedHostedDefault(workspace);
    const found = (await this.hostedDefaults.rows(m)).get(chosen ?? GLOBAL_DEFAULT_ID) ?? null;
    // The operator's drafts are invisible to tenants: no effect, no status, no change of generation key.
    const hostedRow = found && (found.status !== 'draft' || this.hostedDefaults.isOperator()) ? found : null;
    const hosted: HostedSelection = {
      scope_id: chosen ?? GLOBAL_DEFAULT_ID,
      selected_by: chosen ? 'workspace' : 'default',
      status: hostedRow?.status ?? null,
      applied: hostedRow !== null && LIVE_STATUSES.includes(hostedRow.status as LayerStatus),
    };
    if (include('hosted_default') && hostedRow && (hosted.applied || chosen)) {
      refs.push(refOf(hostedRow));
      if (hosted.applied) layers.push(toLayerInput(hostedRow));
    }
    if (include('workspace')) add(workspace);
    if (include('user') && target.userId !== undefined) add(await findLayer(m, 'user', (await this.userKeys.keyFor(m, target.userId)) ?? target.userId));
    if (include('project') && target.projectId !== undefined) {
      const settings = await readSettingsRow(m, target.projectId);
      if (settings) {
        const legacy = legacyLayer(target.projectId, settings);
        layers.push(legacy);
        refs.push({ scope_type: 'project_settings', scope_id: target.projectId, revision: legacy.revision, status: null });
      }
      add(await findLayer(m, 'project', target.projectId));
    }
    if (include('session') && target.sessionId !== undefined) add(await findLayer(m, 'session', target.sessionId));
    return { layers, refs, hosted };
  }

  private async sessionRestartReport(m: EntityManager, sessionId: string, projectId: string, key: string, values: Map<string, ProfileValue>): Promise<RestartReport> {
    const baseline = await m.findOneBy(ProfileSessionBaseline, { session_id: sessionId });
    if (!baseline) {
      await m
        .createQueryBuilder()
        .insert()
        .into(ProfileSessionBaseline)
        .values({ session_id: sessionId, project_id: projectId, generation_key: key, fields: canonicalJson(Object.fromEntries(values)), created_at: this.clock.now() })
        .orIgnore()
        .execute();
      return { ...NO_RESTART };
    }
    if (baseline.generation_key === key) return { ...NO_RESTART };
    const before = new Map(Object.entries(JSON.parse(baseline.fields) as Record<string, ProfileValue>));
    return restartReport(before, values);
  }

  /** The `profile` field of start_session answers and handoffs (legacy defaults when no layer exists). */
  private async startSessionExtra(m: EntityManager, input: StartSessionExtrasInput): Promise<Record<string, unknown>> {
    let userId = input.humanId;
    let sessionId: string | undefined;
    if (input.sessionId) {
      const session = await m.findOneBy(Session, { id: input.sessionId });
      if (session && session.project_id === input.projectId) {
        sessionId = session.id;
        userId = session.human_id;
      }
    }
    const profile = await this.effectiveIn(m, { projectId: input.projectId, sessionId, userId });
    return {
      executable: profile.executable,
      degraded: profile.degraded,
      generation_key: profile.generation_key,
      restart_required: profile.restart_required,
    };
  }
}

function refOf(row: ProfileLayerColumns): LayerRef {
  return { scope_type: row.scope_type, scope_id: row.scope_id, revision: row.revision, status: row.status };
}

/**
 * A deprecated hosted_default still applies but degrades the profile (move
 * off it). A hosted_default the workspace chose explicitly that is missing or
 * a draft does not apply and degrades it; one that is retired makes the profile
 * not executable. `global` missing, in draft or retired simply does not apply.
 */
function healthOf(hosted: HostedSelection): { executable: boolean; reasons: string[] } {
  const explicit = hosted.selected_by === 'workspace';
  const reasons: string[] = [];
  let executable = true;
  if (hosted.status === 'deprecated') reasons.push(`hosted_default ${hosted.scope_id} is deprecated: it still applies, but will be retired`);
  if (explicit && hosted.status === null) reasons.push(`the workspace selects hosted_default ${hosted.scope_id}, which does not exist`);
  if (explicit && hosted.status === 'draft') reasons.push(`the workspace selects hosted_default ${hosted.scope_id}, which is a draft and not in effect`);
  if (explicit && hosted.status === 'retired') {
    executable = false;
    reasons.push(`the workspace selects hosted_default ${hosted.scope_id}, which is retired: select another`);
  }
  return { executable, reasons };
}
