import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { EVERY_TENANT, RealtimeEvents } from '../../common/events/realtime-events';
import { HostedDefaultsStore } from './hosted-defaults.store';
import { checkLayerFields } from './profile-field-validation.util';
import { ProfileLayerColumns } from './profile-layer.columns';
import { RevisionAction } from './profile-layer-revision.columns';
import { findLayer } from './profile-layer-rows.util';
import { LayerProvenance, ProfileLayerRevisionView, ProfileLayerView, toLayerView, toRevisionView } from './profile-layer.view';
import { ProfileError } from './profile-layers.errors';
import { needsRestart } from './profile-resolution.util';
import { DEFAULT_REVISIONS_PAGE, LayerStatus } from './profile-scope.constants';
import { LayerDeleteResult, LayerSaveResult, LayerSource } from './profile-layers.types';
import { withSaveRetry, writeLayer } from './layer-writer.util';

type Transition = 'activate' | 'deprecate' | 'retire';

/** Allowed moves of the hosted_default lifecycle; retired is final. */
const TRANSITIONS: Record<Transition, { to: LayerStatus; from: LayerStatus[]; hint?: string }> = {
  activate: { to: 'active', from: ['draft', 'deprecated'] },
  deprecate: { to: 'deprecated', from: ['active'] },
  retire: { to: 'retired', from: ['draft', 'deprecated'], hint: 'deprecate it first, so tenants are warned before it stops applying' },
};

/**
 * hosted_default layers: the only scope with a lifecycle (draft, active,
 * deprecated, retired) and a revision history. Written only by the operator;
 * drafts are visible only to the operator.
 */
@Injectable()
export class HostedDefaultsService {
  constructor(
    private readonly store: HostedDefaultsStore,
    private readonly clock: Clock,
    private readonly events: RealtimeEvents,
  ) {}

  async get(scopeId: string): Promise<ProfileLayerView> {
    const row = await this.store.transaction((m) => findLayer(m, 'hosted_default', scopeId, this.store.layerTarget));
    if (!row || !this.visible(row)) throw ProfileError.layerNotFound('hosted_default', scopeId);
    return toLayerView(row);
  }

  /** The hosted_default layers the caller may see. */
  async list(scopeId?: string): Promise<ProfileLayerView[]> {
    const rows = await this.store.transaction((m) =>
      m.find(this.store.layerTarget, { where: { scope_type: 'hosted_default', ...(scopeId ? { scope_id: scopeId } : {}) }, order: { scope_id: 'ASC' } }),
    );
    return rows.filter((row) => this.visible(row)).map(toLayerView);
  }

  /** Saves a hosted_default layer wholesale; a new one starts as a draft. Every change adds a revision. */
  async save(
    scopeId: string,
    input: { fields: Record<string, unknown>; reset_fields?: string[]; expected_revision?: number; override_reason?: string },
    clonedFrom: LayerProvenance['cloned_from'],
  ): Promise<LayerSaveResult> {
    this.requireOperator(`saving hosted_default ${scopeId}`);
    const checked = checkLayerFields('hosted_default', input.fields, input.reset_fields);
    const now = this.clock.now();
    const outcome = await withSaveRetry(
      input.expected_revision,
      () =>
        this.store.transaction(async (m) => {
          const current = await findLayer(m, 'hosted_default', scopeId, this.store.layerTarget);
          if (current?.status === 'retired') throw ProfileError.layerRetired(scopeId);
          const result = await writeLayer(m, {
            scopeType: 'hosted_default',
            scopeId,
            projectId: null,
            values: checked.values,
            resets: checked.resets,
            provenance: { saved_at: now.toISOString(), override_reason: input.override_reason ?? null, loosened: [], cloned_from: clonedFrom },
            expectedRevision: input.expected_revision,
            newStatus: 'draft',
            firstRevision: (await this.lastRevision(m, scopeId)) + 1,
            now,
            target: this.store.layerTarget,
          });
          if (result.changed) await this.record(m, result.row, 'save', now);
          return result;
        }),
      () => this.store.transaction(async (m) => (await findLayer(m, 'hosted_default', scopeId, this.store.layerTarget))?.revision ?? 0),
    );
    if (outcome.changed) await this.changed(scopeId);
    return { ...toLayerView(outcome.row), changed: outcome.changed, restart_report: outcome.restart_report, restart_required: needsRestart(outcome.restart_report) };
  }

  /** draft → active, deprecated → active; active → deprecated; draft or deprecated → retired. Repeating a move changes nothing. */
  async transition(scopeId: string, action: Transition): Promise<ProfileLayerView> {
    this.requireOperator(`${action === 'activate' ? 'activating' : action === 'deprecate' ? 'deprecating' : 'retiring'} hosted_default ${scopeId}`);
    const rule = TRANSITIONS[action];
    const now = this.clock.now();
    const { row, changed } = await this.store.transaction(async (m) => {
      const current = await findLayer(m, 'hosted_default', scopeId, this.store.layerTarget);
      if (!current) throw ProfileError.layerNotFound('hosted_default', scopeId);
      if (current.status === rule.to) return { row: current, changed: false };
      if (!rule.from.includes(current.status as LayerStatus)) {
        throw ProfileError.invalidTransition(scopeId, current.status as string, `${action}d`, current.status === 'active' ? rule.hint : undefined);
      }
      const next: ProfileLayerColumns = { ...current, status: rule.to, revision: current.revision + 1, updated_at: now };
      const result = await m.update(this.store.layerTarget, { id: current.id, revision: current.revision }, { status: next.status, revision: next.revision, updated_at: now });
      if (!result.affected) throw ProfileError.staleRevision(current.revision, current.revision + 1);
      await this.record(m, next, action, now);
      return { row: next, changed: true };
    });
    if (changed) await this.changed(scopeId);
    return toLayerView(row);
  }

  /** Deletes a draft or retired hosted_default; one in effect must be deprecated and retired first. Its history stays. */
  async reset(scopeId: string): Promise<LayerDeleteResult> {
    this.requireOperator(`resetting hosted_default ${scopeId}`);
    const now = this.clock.now();
    const revision = await this.store.transaction(async (m) => {
      const current = await findLayer(m, 'hosted_default', scopeId, this.store.layerTarget);
      if (!current) throw ProfileError.layerNotFound('hosted_default', scopeId);
      if (current.status === 'active' || current.status === 'deprecated') {
        throw ProfileError.invalidTransition(scopeId, current.status, 'reset', 'retire it first');
      }
      await m.delete(this.store.layerTarget, { id: current.id });
      const gone: ProfileLayerColumns = { ...current, revision: current.revision + 1 };
      await this.record(m, gone, 'reset', now);
      return gone.revision;
    });
    await this.changed(scopeId);
    return { deleted: true, scope_type: 'hosted_default', scope_id: scopeId, revision };
  }

  /** The audit trail of a hosted_default layer, newest first. */
  async revisions(scopeId: string, limit = DEFAULT_REVISIONS_PAGE): Promise<ProfileLayerRevisionView[]> {
    const { row, history } = await this.store.transaction(async (m) => ({
      row: await findLayer(m, 'hosted_default', scopeId, this.store.layerTarget),
      history: await m.find(this.store.revisionTarget, { where: { scope_id: scopeId }, order: { revision: 'DESC' }, take: limit }),
    }));
    const visible = row ? this.visible(row) : this.store.isOperator();
    if (!visible || history.length === 0) throw ProfileError.layerNotFound('hosted_default', scopeId);
    return history.map(toRevisionView);
  }

  /** The layer a clone reads from. */
  async source(scopeId: string): Promise<LayerSource> {
    const view = await this.get(scopeId);
    return { view, scope_type: 'hosted_default' };
  }

  /** Drafts are the operator's work in progress: other tenants see them as missing. */
  visible(row: ProfileLayerColumns): boolean {
    return row.status !== 'draft' || this.store.isOperator();
  }

  /**
   * Every workspace inherits the hosted defaults: once the cache holds the change, every dashboard
   * connected to this instance reads its effective profile again (`profile_changed`, project null).
   */
  private async changed(scopeId: string): Promise<void> {
    await this.store.refreshAfterWrite();
    this.events.publish({ tenantId: EVERY_TENANT, event: 'profile_changed', data: { scope_type: 'hosted_default', scope_id: scopeId, project_id: null } });
  }

  private requireOperator(what: string) {
    if (!this.store.isOperator()) throw ProfileError.operatorOnly(what);
  }

  private async lastRevision(m: EntityManager, scopeId: string): Promise<number> {
    const last = await m.findOne(this.store.revisionTarget, { where: { scope_id: scopeId }, order: { revision: 'DESC' } });
    return last?.revision ?? 0;
  }

  private async record(m: EntityManager, row: ProfileLayerColumns, action: RevisionAction, now: Date) {
    await m.insert(this.store.revisionTarget, {
      id: randomUUID(),
      scope_id: row.scope_id,
      revision: row.revision,
      action,
      status: row.status as LayerStatus,
      fields: row.fields,
      reset_fields: row.reset_fields,
      provenance: row.provenance,
      author: this.store.author(),
      created_at: now,
    });
  }
}
