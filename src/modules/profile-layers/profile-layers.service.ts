import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere } from 'typeorm';
import { findSecret } from '../../../libs/secrets';
import { currentTenant, requestActorAccountId, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { Project } from '../projects/project.entity';
import { Session } from '../sessions/session.entity';
import { CloneProfileLayerDto } from './dto/clone-profile-layer.dto';
import { ListProfileLayersQueryDto } from './dto/list-profile-layers-query.dto';
import { ProfileScopeParamsDto } from './dto/profile-scope-params.dto';
import { SaveProfileLayerDto } from './dto/save-profile-layer.dto';
import { HostedDefaultsService } from './hosted-defaults.service';
import { HostedDefaultsStore } from './hosted-defaults.store';
import { withSaveRetry, writeLayer } from './layer-writer.util';
import { checkLayerFields } from './profile-field-validation.util';
import { ProfileLayerColumns } from './profile-layer.columns';
import { ProfileLayer } from './profile-layer.entity';
import { findLayer } from './profile-layer-rows.util';
import { LayerProvenance, ProfileLayerView, toLayerView } from './profile-layer.view';
import { USER_SELF, UserLayerKeys } from './user-layer-keys.service';
import { ProfileError } from './profile-layers.errors';
import { LayerDeleteResult, LayerSaveResult, LayerSource } from './profile-layers.types';
import { loosenedBy, needsRestart } from './profile-resolution.util';
import { ProfileResolver, ProfileTarget } from './profile-resolver.service';
import { HOSTED_DEFAULT_ID, PROFILE_SCOPES, ProfileScope, WORKSPACE_SINGLETON } from './profile-scope.constants';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Profile layers of the workspace, user, project and session scopes (the
 * tenant's own), and the front door to hosted_default layers: list, read,
 * save (wholesale, with optimistic concurrency, narrow-only dials and the
 * secret and path rules), clone and reset.
 */
@Injectable()
export class ProfileLayersService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly resolver: ProfileResolver,
    private readonly hostedDefaults: HostedDefaultsService,
    private readonly store: HostedDefaultsStore,
    private readonly events: RealtimeEvents,
    private readonly userKeys: UserLayerKeys,
  ) {}

  /** `user/me` stands for the person asking (hosted: their account; self-hosted: the default human id). */
  private withSelf(params: ProfileScopeParamsDto): ProfileScopeParamsDto {
    return params.scope_type === 'user' && params.scope_id === USER_SELF ? { ...params, scope_id: this.userKeys.self() } : params;
  }

  async list(query: ListProfileLayersQueryDto): Promise<ProfileLayerView[]> {
    const where: FindOptionsWhere<ProfileLayer> = {};
    if (query.scope_type) where.scope_type = query.scope_type;
    if (query.scope_id) where.scope_id = query.scope_id;
    if (query.project_id) where.project_id = query.project_id;
    const own: ProfileLayerColumns[] = await this.db.transaction((m) => m.find(ProfileLayer, { where }));
    let layers = own.filter((row) => row.scope_type !== 'hosted_default' || this.hostedDefaults.visible(row)).map(toLayerView);
    const wantsHosted = (!query.scope_type || query.scope_type === 'hosted_default') && !query.project_id;
    if (this.store.inControlPlane) {
      layers = layers.filter((l) => l.scope_type !== 'hosted_default');
      if (wantsHosted) layers.push(...(await this.hostedDefaults.list(query.scope_id)));
    }
    return layers.sort((a, b) => PROFILE_SCOPES.indexOf(a.scope_type) - PROFILE_SCOPES.indexOf(b.scope_type) || a.scope_id.localeCompare(b.scope_id));
  }

  async get(params: ProfileScopeParamsDto): Promise<ProfileLayerView> {
    return (await this.source(params)).view;
  }

  async save(given: ProfileScopeParamsDto, input: SaveProfileLayerDto, clonedFrom: LayerProvenance['cloned_from'] = null): Promise<LayerSaveResult> {
    const params = this.withSelf(given);
    const scope = checkScopeId(params.scope_type, params.scope_id);
    if (input.override_reason) {
      const secret = findSecret(input.override_reason);
      if (secret) throw ProfileError.secretValue('override_reason', secret);
    }
    if (scope === 'hosted_default') return this.hostedDefaults.save(params.scope_id, input, clonedFrom);
    const checked = checkLayerFields(scope, input.fields, input.reset_fields);
    const selection = scope === 'workspace' ? ((checked.values.get('hosted_default_id') as string | undefined) ?? null) : undefined;
    const now = this.clock.now();
    await this.store.warm();
    const outcome = await withSaveRetry(
      input.expected_revision,
      () =>
        this.db.transaction(async (m) => {
          const target = await this.targetOf(m, scope, params.scope_id);
          if (selection) await this.requireSelectable(m, selection);
          const below = await this.resolver.below(m, scope, target, selection);
          const loosened = loosenedBy(checked, below);
          if (loosened.length > 0 && !input.override_reason) throw ProfileError.looseningNotAllowed(loosened[0].field, scope, loosened[0].source);
          return writeLayer(m, {
            scopeType: scope,
            scopeId: params.scope_id,
            projectId: target.projectId ?? null,
            values: checked.values,
            resets: checked.resets,
            provenance: { saved_at: now.toISOString(), override_reason: input.override_reason ?? null, loosened: loosened.map((l) => l.field), cloned_from: clonedFrom },
            expectedRevision: input.expected_revision,
            newStatus: null,
            firstRevision: 1,
            now,
          });
        }),
      () => this.db.transaction(async (m) => (await findLayer(m, scope, params.scope_id))?.revision ?? 0),
    );
    if (outcome.changed) this.published(scope, params.scope_id, outcome.row.project_id ?? null);
    return { ...toLayerView(outcome.row), changed: outcome.changed, restart_report: outcome.restart_report, restart_required: needsRestart(outcome.restart_report) };
  }

  /**
   * Copies a layer's fields, reset_fields and provenance (its override_reason,
   * unless the clone gives its own) to another scope, as a save there: same
   * rules, same checks, and the copy records where it came from.
   */
  async clone(source: ProfileScopeParamsDto, input: CloneProfileLayerDto): Promise<LayerSaveResult> {
    const from = await this.source(source);
    const reason = input.override_reason ?? from.view.provenance.override_reason ?? undefined;
    return this.save(
      { scope_type: input.target_scope_type, scope_id: input.target_scope_id },
      { fields: from.view.fields, reset_fields: from.view.reset_fields, expected_revision: input.expected_revision, override_reason: reason },
      { scope_type: from.scope_type, scope_id: from.view.scope_id, revision: from.view.revision },
    );
  }

  /** Deletes the scope's layer (a project's legacy settings stay: they belong to the settings route). */
  async reset(given: ProfileScopeParamsDto): Promise<LayerDeleteResult> {
    const params = this.withSelf(given);
    const scope = checkScopeId(params.scope_type, params.scope_id);
    if (scope === 'hosted_default') return this.hostedDefaults.reset(params.scope_id);
    const { result, projectId } = await this.db.transaction(async (m) => {
      const target = await this.targetOf(m, scope, params.scope_id);
      const row = await findLayer(m, scope, params.scope_id);
      if (!row) throw ProfileError.layerNotFound(scope, params.scope_id);
      await m.delete(ProfileLayer, { id: row.id });
      return { result: { deleted: true as const, scope_type: scope, scope_id: params.scope_id, revision: row.revision }, projectId: target.projectId ?? null };
    });
    this.published(scope, params.scope_id, projectId);
    return result;
  }

  /** A layer of this tenant changed (committed): dashboards showing an effective profile read it again. */
  private published(scope: ProfileScope, scopeId: string, projectId: string | null): void {
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'profile_changed', data: { scope_type: scope, scope_id: scopeId, project_id: projectId } });
  }

  private async source(given: ProfileScopeParamsDto): Promise<LayerSource> {
    const params = this.withSelf(given);
    const scope = checkScopeId(params.scope_type, params.scope_id);
    if (scope === 'hosted_default') return this.hostedDefaults.source(params.scope_id);
    const row = await this.db.transaction(async (m) => {
      await this.targetOf(m, scope, params.scope_id);
      return findLayer(m, scope, params.scope_id);
    });
    if (!row) throw ProfileError.layerNotFound(scope, params.scope_id);
    return { scope_type: scope, view: toLayerView(row) };
  }

  /**
   * Who a layer of `scope` applies to, checked in the current tenant: a
   * project or session of another tenant is not found, like a missing one.
   */
  private async targetOf(m: EntityManager, scope: ProfileScope, scopeId: string): Promise<ProfileTarget> {
    switch (scope) {
      case 'project':
        if (!(await m.existsBy(Project, { id: scopeId }))) throw ProfileError.scopeNotFound('project', scopeId);
        return { projectId: scopeId };
      case 'session': {
        const session = await m.findOneBy(Session, { id: scopeId });
        if (!session) throw ProfileError.scopeNotFound('session', scopeId);
        return { projectId: session.project_id, userId: session.human_id, sessionId: session.id };
      }
      case 'user':
        // The person's own layer, hosted: one saved earlier under their e-mail address becomes theirs first.
        if (scopeId === requestActorAccountId()) await this.userKeys.carryOver(m, scopeId);
        return { userId: scopeId };
      default:
        return {};
    }
  }

  /** A workspace may select a hosted_default that exists, is visible to it and is not retired. */
  private async requireSelectable(m: EntityManager, id: string) {
    const row = (await this.store.rows(m)).get(id);
    if (!row || row.status === 'retired' || !this.hostedDefaults.visible(row)) throw ProfileError.unknownHostedDefault(id);
  }
}

/** Checks a scope id against its scope's rules; answers the scope. */
function checkScopeId(scope: ProfileScope, id: string): ProfileScope {
  switch (scope) {
    case 'hosted_default':
      if (!HOSTED_DEFAULT_ID.test(id) || (PROFILE_SCOPES as readonly string[]).includes(id)) {
        throw ProfileError.invalidScope(
          "a hosted_default scope_id is 'global' or an operator-chosen id (lower-case letters, digits, '.', '_' or '-', at most 63, not a scope name)",
        );
      }
      return scope;
    case 'workspace':
      if (id !== WORKSPACE_SINGLETON) throw ProfileError.invalidScope(`the workspace scope_id is '${WORKSPACE_SINGLETON}'`);
      return scope;
    case 'project':
    case 'session':
      if (!UUID.test(id)) throw ProfileError.invalidScope(`a ${scope} scope_id must be a UUID`);
      return scope;
    case 'user':
      if (id.trim() !== id || id === '') throw ProfileError.invalidScope('a user scope_id is a human id without leading or trailing spaces');
      return scope;
    default:
      throw ProfileError.invalidScope(`unknown scope_type ${String(scope)}`);
  }
}
