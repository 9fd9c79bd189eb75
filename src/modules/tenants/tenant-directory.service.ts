import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { runWithTenant, TenantContext } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { LOCAL_TENANT_ID, localTenant } from './local-tenant';
import { tenantContextOf } from './tenant-context.util';
import { TenantRecord } from './tenant.entity';
import { TenantError } from './tenants.errors';

/** The tenants this instance serves, for work that no request carries (background jobs, the command line). */
@Injectable()
export class TenantDirectory {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {}

  /** Every tenant this instance serves (background jobs walk them): the local one, or each active hosted tenant. */
  async listContexts(): Promise<TenantContext[]> {
    if (!this.config.isHosted) return [localTenant(this.config)];
    const rows = await this.source.getRepository(TenantRecord).find({ where: { status: 'active' }, order: { created_at: 'ASC' } });
    return rows.map(tenantContextOf);
  }

  /** The context of an active tenant this instance serves, or undefined (a project token names its tenant). */
  async contextOf(tenantId: string): Promise<TenantContext | undefined> {
    if (!this.config.isHosted) return tenantId === LOCAL_TENANT_ID ? localTenant(this.config) : undefined;
    const row = await this.source.getRepository(TenantRecord).findOneBy({ id: tenantId, status: 'active' });
    return row ? tenantContextOf(row) : undefined;
  }

  /** Runs `work` as the given tenant (CLI and background jobs). */
  async asTenant<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const row = await this.source.getRepository(TenantRecord).findOneBy({ id: tenantId });
    if (!row) throw TenantError.notFound(tenantId);
    return runWithTenant(tenantContextOf(row), work);
  }
}
