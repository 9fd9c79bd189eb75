import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource, EntityManager, EntityTarget } from 'typeorm';
import { currentTenant, requestAdminActor, TenantDb } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { HostedProfileLayer } from './hosted-profile-layer.entity';
import { HostedProfileLayerRevision } from './hosted-profile-layer-revision.entity';
import { ProfileLayerColumns } from './profile-layer.columns';
import { ProfileLayer } from './profile-layer.entity';
import { ProfileLayerRevisionColumns } from './profile-layer-revision.columns';
import { ProfileLayerRevision } from './profile-layer-revision.entity';

export type HostedDefaults = ReadonlyMap<string, ProfileLayerColumns>;

/**
 * Where hosted_default layers live, and who may write them.
 *
 * Self-hosted, the person running Baton is its operator: hosted_default layers
 * are rows of the local tenant's own storage, read in the same transaction as
 * the rest of the profile. Hosted, they are operator-wide defaults every
 * tenant resolves against: they live in the control schema, are written only
 * through the operator's tenant (SERVICE_OPERATOR_TENANT_ID), and each
 * instance keeps a copy for SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS so that a
 * tenant transaction never waits on a second connection for them.
 */
@Injectable()
export class HostedDefaultsStore implements OnApplicationBootstrap {
  private readonly logger = new Logger('hosted-defaults');
  private cache: { rows: HostedDefaults; loadedAt: number } | null = null;
  private loading: Promise<HostedDefaults> | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly tenantDb: TenantDb,
  ) {}

  async onApplicationBootstrap() {
    if (this.inControlPlane) await this.reload();
  }

  /** True when hosted_default layers are in the control schema (hosted mode). */
  get inControlPlane(): boolean {
    return this.config.isHosted;
  }

  /** The table of hosted_default layers: control.hosted_profile_layers (hosted) or the tenant's profile_layers. */
  get layerTarget(): EntityTarget<ProfileLayerColumns> {
    return this.inControlPlane ? HostedProfileLayer : ProfileLayer;
  }

  /** The table of their revisions. */
  get revisionTarget(): EntityTarget<ProfileLayerRevisionColumns> {
    return this.inControlPlane ? HostedProfileLayerRevision : ProfileLayerRevision;
  }

  /**
   * Whether the caller may write hosted_default layers: always self-hosted; hosted, the instance's
   * admin identity (a listed admin address signed in, or the admin password's cookie) or the
   * operator's tenant.
   */
  isOperator(): boolean {
    if (!this.inControlPlane) return true;
    return requestAdminActor() !== undefined || this.isOperatorTenant();
  }

  /** Who a hosted_default change is recorded as made by (null self-hosted, where the operator is whoever runs Baton). */
  author(): string | null {
    if (!this.inControlPlane) return null;
    return requestAdminActor() ?? (this.isOperatorTenant() ? 'operator workspace' : null);
  }

  private isOperatorTenant(): boolean {
    return this.config.operatorTenantId !== undefined && currentTenant().tenantId === this.config.operatorTenantId;
  }

  /** Runs `work` in one transaction on the storage that holds hosted_default layers. */
  async transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    if (!this.inControlPlane) return this.tenantDb.transaction(work);
    const runner = this.source.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Call before a tenant transaction that resolves profiles: hosted, brings the
   * copy up to date when it is older than the cache time. Self-hosted: nothing.
   */
  async warm(): Promise<void> {
    if (this.inControlPlane && this.isStale()) await this.reload();
  }

  /**
   * Every hosted_default layer (all statuses), keyed by scope id, inside the
   * caller's tenant transaction `m`. Hosted: the instance's copy; a stale copy
   * is still answered while a fresh one loads in the background.
   */
  async rows(m: EntityManager): Promise<HostedDefaults> {
    if (!this.inControlPlane) return byId(await m.find(ProfileLayer, { where: { scope_type: 'hosted_default' } }));
    return this.copy();
  }

  /** The instance's copy of the control plane's layers; a stale copy is still answered while a fresh one loads. */
  private async copy(): Promise<HostedDefaults> {
    if (!this.cache) return this.reload();
    if (this.isStale()) {
      this.reload().catch((error: Error) => this.logger.warn({ msg: 'could not refresh hosted_default layers', error: error.message }));
    }
    return this.cache.rows;
  }

  /**
   * Whether some hosted_default layer of the control plane names `field` among the fields it sets
   * (hosted; self-hosted they are rows of the tenant's own storage, so this answers false). The
   * instance's copy, kept as `rows` keeps it: for a hot path that must know cheaply whether a
   * field's default can have been changed above the workspace.
   */
  async controlPlaneSets(field: string): Promise<boolean> {
    if (!this.inControlPlane) return false;
    const rows = await this.copy();
    const quoted = JSON.stringify(field);
    for (const row of rows.values()) if (row.fields.includes(quoted)) return true;
    return false;
  }

  /** Reads the hosted_default layers again (after the operator changed one, or when the copy is stale). */
  reload(): Promise<HostedDefaults> {
    if (!this.inControlPlane) return Promise.resolve(new Map());
    this.loading ??= this.transaction((m) => m.find(HostedProfileLayer, { where: { scope_type: 'hosted_default' } }))
      .then((rows) => {
        const map = byId(rows);
        this.cache = { rows: map, loadedAt: Date.now() };
        return map;
      })
      .finally(() => (this.loading = null));
    return this.loading;
  }

  /** After the operator's write has committed: the next read on this instance sees it. */
  async refreshAfterWrite(): Promise<void> {
    if (!this.inControlPlane) return;
    // A load already under way may have read before the write: let it finish, then read again.
    if (this.loading) await this.loading.catch(() => undefined);
    await this.reload();
  }

  private isStale(): boolean {
    return !this.cache || Date.now() - this.cache.loadedAt >= this.config.profileDefaultsCacheS * 1000;
  }
}

function byId(rows: ProfileLayerColumns[]): HostedDefaults {
  return new Map(rows.map((row) => [row.scope_id, row]));
}
