import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  ByodbPools,
  createTenantSchema,
  dropTenantSchema,
  latestMigrationName,
  roleNameFor,
  runMigrations,
  schemaNameFor,
  TenantServer,
  TenantServers,
} from '../../../libs/tenancy';
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
  /** Tenants this instance is making, by id, with their placement (`placeNext`). */
  private readonly placing = new Map<string, string | null>();
  /** The placement decision running now, which the next one waits for. */
  private placements: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly pools: ByodbPools,
    private readonly resolver: TenantResolver,
    private readonly tokens: ApiTokens,
    private readonly servers: TenantServers,
  ) {}

  /** Creates a tenant with its own schema and role, migrated, and a first API token. */
  async provision(name: string): Promise<ProvisionedTenant> {
    const id = await this.createWorkspace(name);
    const token = await this.tokens.createToken(id, 'default');
    return { tenant_id: id, token };
  }

  /**
   * Creates a tenant with its own schema and role, migrated, without any token (a workspace whose
   * people sign in), on the server holding the fewest tenants (`placeNext`). Its control-plane row
   * is written once the schema exists, so a failure leaves neither behind.
   */
  async createWorkspace(name: string): Promise<string> {
    if (!this.config.isHosted) throw TenantError.notHosted('provisioning a tenant');
    const id = randomUUID();
    const schema = schemaNameFor(id);
    const role = roleNameFor(id);
    const now = new Date();
    const placement = await this.placeNext(id);
    const source = await this.servers.source(placement).catch((error: unknown) => {
      this.placing.delete(id);
      throw error;
    });
    const runner = source.createQueryRunner();
    let created = false;
    try {
      await runner.connect();
      await runner.query('BEGIN');
      try {
        await createTenantSchema(runner, schema, role);
        await runner.query('COMMIT');
      } catch (error) {
        await runner.query('ROLLBACK');
        throw error;
      }
      created = true;
      await this.source.getRepository(TenantRecord).insert({
        id,
        name,
        schema_name: schema,
        role_name: role,
        db_url_sealed: null,
        db_server: placement,
        migrated_to: null,
        status: 'active',
        created_at: now,
        updated_at: now,
      });
      await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema, role });
      await this.source.getRepository(TenantRecord).update({ id }, { migrated_to: latestMigrationName(TENANT_MIGRATIONS) });
    } catch (error) {
      if (created) await dropTenantSchema(runner, schema, role).catch(() => undefined);
      await this.source
        .getRepository(TenantRecord)
        .delete({ id })
        .catch(() => undefined);
      throw error;
    } finally {
      this.placing.delete(id);
      await runner.release();
    }
    return id;
  }

  /**
   * Where tenant `id` goes: of the servers new tenants may be placed on, the one holding the
   * fewest tenants now (the first listed on a tie). Null is the control plane's database. A tenant
   * has no row until its schema exists, so the tenants this instance is still making count where
   * they were placed (their rows, once written, are left out of the count): a burst of sign-ups
   * spreads instead of all landing on the server that was emptiest when it began.
   */
  async placeNext(id: string): Promise<string | null> {
    const candidates = this.servers.placeable();
    if (candidates.length <= 1) return this.servers.placementOf(candidates[0]?.key ?? '');
    // One placement at a time in this instance: one placed while another's count is read would be
    // counted twice (its row and its entry here) or not at all.
    const turn = this.placements.then(() => this.placeAmong(id, candidates));
    this.placements = turn.catch(() => undefined);
    return turn;
  }

  private async placeAmong(id: string, candidates: TenantServer[]): Promise<string | null> {
    const making = [...this.placing];
    const rows: { db_server: string | null; tenants: string }[] = await this.source.query(
      'SELECT db_server, count(*) AS tenants FROM control.tenants WHERE id <> ALL($1) GROUP BY db_server',
      [making.map(([made]) => made)],
    );
    const held = new Map(rows.map((r) => [r.db_server, Number(r.tenants)]));
    for (const [, placement] of making) held.set(placement, (held.get(placement) ?? 0) + 1);
    const count = (server: TenantServer) => held.get(this.servers.placementOf(server.key)) ?? 0;
    const best = candidates.reduce((fewest, server) => (count(server) < count(fewest) ? server : fewest));
    const placement = this.servers.placementOf(best.key);
    this.placing.set(id, placement);
    return placement;
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
