import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ByodbPools, dropTenantSchema, TenantServers } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { ApiTokens } from './api-tokens.service';
import { TenantMaker } from './tenant-maker.service';
import { TenantResolver } from './tenant-resolver.service';
import { TenantSpares } from './tenant-spares.service';
import { TenantRecord } from './tenant.entity';
import { TenantError } from './tenants.errors';

export interface ProvisionedTenant {
  tenant_id: string;
  /** Shown once: only its hash is stored. */
  token: string;
}

/** Creates and removes hosted tenants: their schema, role, control-plane row and first API token. */
@Injectable()
export class TenantProvisioning {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly pools: ByodbPools,
    private readonly resolver: TenantResolver,
    private readonly tokens: ApiTokens,
    private readonly servers: TenantServers,
    private readonly maker: TenantMaker,
    private readonly spares: TenantSpares,
  ) {}

  /** Creates a tenant with its own schema and role, migrated, and a first API token. */
  async provision(name: string): Promise<ProvisionedTenant> {
    const id = await this.createWorkspace(name);
    const token = await this.tokens.createToken(id, 'default');
    return { tenant_id: id, token };
  }

  /**
   * Creates a tenant with its own schema and role, migrated, without any token (a workspace whose
   * people sign in), on the server holding the fewest tenants (`placeNext`): a spare made there in
   * advance when one is ready (TenantSpares), else made now. Either way the reserve is topped up
   * again in the background.
   */
  async createWorkspace(name: string): Promise<string> {
    if (!this.config.isHosted) throw TenantError.notHosted('provisioning a tenant');
    const id = randomUUID();
    const placement = await this.maker.placeNext(id);
    try {
      const spare = await this.spares.claim(name, placement).catch((error: unknown) => {
        this.maker.forget(id);
        throw error;
      });
      if (spare) {
        this.maker.forget(id);
        return spare;
      }
      await this.maker.make(id, name, 'active', placement);
      return id;
    } finally {
      this.spares.replenish();
    }
  }

  /** Removes a tenant: its schema with all data, its role, its tokens. */
  async deprovision(tenantId: string): Promise<void> {
    const tenant = await this.source.getRepository(TenantRecord).findOneBy({ id: tenantId });
    if (!tenant) throw TenantError.notFound(tenantId);
    const runner = (await this.servers.source(tenant.db_server)).createQueryRunner();
    try {
      await runner.connect();
      await dropTenantSchema(runner, tenant.schema_name, tenant.role_name);
    } finally {
      await runner.release();
    }
    await this.source.getRepository(TenantRecord).delete({ id: tenantId });
    this.resolver.forgetTenant(tenantId);
    await this.pools.close(tenantId);
  }
}
