import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ByodbPools, createTenantSchema, dropTenantSchema, latestMigrationName, roleNameFor, runMigrations, schemaNameFor } from '../../../libs/tenancy';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { ApiTokens } from './api-tokens.service';
import { TenantResolver } from './tenant-resolver.service';
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
  ) {}

  /** Creates a tenant with its own schema and role, migrated, and a first API token. */
  async provision(name: string): Promise<ProvisionedTenant> {
    const id = await this.createWorkspace(name);
    const token = await this.tokens.createToken(id, 'default');
    return { tenant_id: id, token };
  }

  /** Creates a tenant with its own schema and role, migrated, without any token (a workspace whose people sign in). */
  async createWorkspace(name: string): Promise<string> {
    if (!this.config.isHosted) throw TenantError.notHosted('provisioning a tenant');
    const id = randomUUID();
    const schema = schemaNameFor(id);
    const role = roleNameFor(id);
    const now = new Date();
    const runner = this.source.createQueryRunner();
    try {
      await runner.connect();
      await runner.startTransaction();
      try {
        await createTenantSchema(runner, schema, role);
        await runner.manager.insert(TenantRecord, {
          id,
          name,
          schema_name: schema,
          role_name: role,
          db_url_sealed: null,
          migrated_to: null,
          status: 'active',
          created_at: now,
          updated_at: now,
        });
        await runner.commitTransaction();
      } catch (error) {
        await runner.rollbackTransaction();
        throw error;
      }
      await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema, role });
      await runner.manager.update(TenantRecord, { id }, { migrated_to: latestMigrationName(TENANT_MIGRATIONS) });
    } catch (error) {
      await dropTenantSchema(runner, schema, role).catch(() => undefined);
      await runner.manager.delete(TenantRecord, { id }).catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
    return id;
  }

  /** Removes a tenant: its schema with all data, its role, its tokens. */
  async deprovision(tenantId: string): Promise<void> {
    const tenant = await this.source.getRepository(TenantRecord).findOneBy({ id: tenantId });
    if (!tenant) throw TenantError.notFound(tenantId);
    const runner = this.source.createQueryRunner();
    try {
      await runner.connect();
      await dropTenantSchema(runner, tenant.schema_name, tenant.role_name);
      await runner.manager.delete(TenantRecord, { id: tenantId });
    } finally {
      await runner.release();
    }
    this.resolver.forgetTenant(tenantId);
    await this.pools.close(tenantId);
  }
}
