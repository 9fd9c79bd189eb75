import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull } from 'typeorm';
import {
  BYODB_SCHEMA,
  ByodbPools,
  createTenantSchema,
  currentTenant,
  dropTenantSchema,
  extendRequestDeadline,
  latestMigrationName,
  quoteIdent,
  roleNameFor,
  runMigrations,
  runWithTenant,
  schemaNameFor,
  SecretBox,
  TenantContext,
  TenantDb,
} from '../../../libs/tenancy';
import { OutboundGuard } from '../../../libs/outbound-guard';
import { redactSecrets } from '../../../libs/secrets';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { BYODB_GUARD } from '../../common/outbound/outbound-guards';
import { CONNECTION_SECRET_BOX, SHARED_DATA_SOURCE } from '../../database/database.module';
import { MIGRATION_LOCK } from '../../database/database-migrator';
import { byodbHost, postgresOptions } from '../../database/data-source-options';
import { generateApiToken, hashApiToken } from './api-token.util';
import { ApiTokenRecord } from './api-token.entity';
import { localTenant } from './local-tenant';
import { TenantResolver } from './tenant-resolver.service';
import { TenantRecord } from './tenant.entity';
import { TenantError } from './tenants.errors';

/** The deadline of a connect-db request: connecting, checking and migrating the tenant's own database. */
const CONNECT_DB_DEADLINE_MS = 120_000;

/** How long connect-db waits for a database to answer; a refusal never comes sooner, so its timing tells nothing either. */
const BYODB_CONNECT_TIMEOUT_MS = 5000;

/** The one-row table in a BYODB database's `baton` schema naming the workspace that owns it. */
const OWNER_TABLE = 'baton_owner';

/** What tells one Postgres database from another, whatever address or name reached it. */
interface DatabaseIdentity {
  system: string | null;
  db: string;
  oid: string;
  started: string;
}

export interface ProvisionedTenant {
  tenant_id: string;
  /** Shown once: only its hash is stored. */
  token: string;
}

/**
 * The hosted control plane: provisions tenants (schema, role, migrations),
 * issues and revokes API tokens, and moves a tenant to its own database (BYODB).
 */
@Injectable()
export class TenantsService {
  private readonly logger = new Logger('tenants');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(CONNECTION_SECRET_BOX) private readonly secretBox: SecretBox,
    private readonly pools: ByodbPools,
    private readonly tenantDb: TenantDb,
    private readonly resolver: TenantResolver,
    @Inject(BYODB_GUARD) private readonly byodbGuard: OutboundGuard,
  ) {}

  /** Identity of the control plane's database, read once. */
  private controlIdentity?: Promise<DatabaseIdentity>;

  /** Creates a tenant with its own schema and role, migrated, and a first API token. */
  async provision(name: string): Promise<ProvisionedTenant> {
    this.requireHosted('provisioning a tenant');
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
    const token = await this.createToken(id, 'default');
    return { tenant_id: id, token };
  }

  /** Issues a new token for a tenant. The token is returned here and never again. */
  async createToken(tenantId: string, name: string): Promise<string> {
    const token = generateApiToken();
    const tokenHash = hashApiToken(token);
    await this.source.getRepository(ApiTokenRecord).insert({
      id: randomUUID(),
      tenant_id: tenantId,
      name,
      token_hash: tokenHash,
      token_prefix: token.slice(0, 15),
      created_at: new Date(),
      revoked_at: null,
    });
    // A refusal of this value remembered before it existed must not outlive its creation here.
    this.resolver.forgetToken(tokenHash);
    return token;
  }

  /** Revokes a token by its value; later requests with it answer 401. */
  async revokeToken(token: string): Promise<boolean> {
    const hash = hashApiToken(token);
    const result = await this.source.getRepository(ApiTokenRecord).update({ token_hash: hash, revoked_at: IsNull() }, { revoked_at: new Date() });
    this.resolver.forgetToken(hash);
    return (result.affected ?? 0) > 0;
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

  /**
   * Moves the current tenant to its own Postgres database: verifies the
   * connection, migrates the tenant schema there, stores the URL sealed, and
   * sends the tenant's requests there from then on. Refused while the tenant
   * still has projects in the shared database, so nothing is left behind.
   */
  async connectOwnDatabase(url: string): Promise<{ connected: true; database: 'postgres'; schema: string }> {
    this.requireHosted('connecting your own database');
    const tenant = currentTenant();
    const projects = await this.tenantDb.transaction(async (m) => {
      const rows: { n: string | number }[] = await m.query('SELECT count(*) AS n FROM projects');
      return Number(rows[0]?.n ?? 0);
    });
    if (projects > 0 && !tenant.byodbUrlEncrypted) throw TenantError.workspaceNotEmpty(projects);

    const started = Date.now();
    // Migrating a database across the network may take longer than a request usually may.
    extendRequestDeadline(started + CONNECT_DB_DEADLINE_MS);
    try {
      await this.migrateOwnDatabase(url, tenant.tenantId);
    } catch (error) {
      // Every refusal takes at least the connect timeout, whatever its cause.
      await new Promise((r) => setTimeout(r, Math.max(0, started + BYODB_CONNECT_TIMEOUT_MS - Date.now())));
      throw error;
    }
    await this.source
      .getRepository(TenantRecord)
      .update({ id: tenant.tenantId }, { db_url_sealed: this.secretBox.seal(url), migrated_to: latestMigrationName(TENANT_MIGRATIONS), updated_at: new Date() });
    this.resolver.forgetTenant(tenant.tenantId);
    await this.pools.close(tenant.tenantId);
    this.logger.log({ msg: 'tenant connected its own database', tenant_id: tenant.tenantId });
    return { connected: true, database: 'postgres', schema: BYODB_SCHEMA };
  }

  /** Brings every tenant whose schema is behind the tenant migration set up to date. */
  async upgradeTenantSchemas(): Promise<number> {
    if (!this.config.isHosted) return 0;
    const latest = latestMigrationName(TENANT_MIGRATIONS);
    const stale = await this.staleTenants().getMany();
    let upgraded = 0;
    for (const tenant of stale) {
      try {
        if (tenant.db_url_sealed) await this.migrateOwnDatabase(this.secretBox.open(tenant.db_url_sealed), tenant.id);
        else await this.migrateSharedSchema(tenant);
        await this.source.getRepository(TenantRecord).update({ id: tenant.id }, { migrated_to: latest, updated_at: new Date() });
        upgraded += 1;
      } catch (error) {
        this.logger.error({ msg: 'tenant schema upgrade failed', tenant_id: tenant.id, error: redactSecrets(String(error)) });
      }
    }
    return upgraded;
  }

  /** Tenants whose schema or database is behind the tenant migration set (0 when all are current). */
  async staleTenantCount(): Promise<number> {
    return this.config.isHosted ? this.staleTenants().getCount() : 0;
  }

  private staleTenants() {
    return this.source
      .getRepository(TenantRecord)
      .createQueryBuilder('t')
      .where('t.migrated_to IS DISTINCT FROM :latest', { latest: latestMigrationName(TENANT_MIGRATIONS) });
  }

  /** Every tenant this instance serves (background jobs walk them): the local one, or each active hosted tenant. */
  async listContexts(): Promise<TenantContext[]> {
    if (!this.config.isHosted) return [localTenant(this.config)];
    const rows = await this.source.getRepository(TenantRecord).find({ where: { status: 'active' }, order: { created_at: 'ASC' } });
    return rows.map((row) => ({ tenantId: row.id, schema: row.schema_name, role: row.role_name, byodbUrlEncrypted: row.db_url_sealed }));
  }

  /** Runs `work` as the given tenant (CLI and background jobs). */
  async asTenant<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    const row = await this.source.getRepository(TenantRecord).findOneBy({ id: tenantId });
    if (!row) throw TenantError.notFound(tenantId);
    const context: TenantContext = {
      tenantId: row.id,
      schema: row.schema_name,
      role: row.role_name,
      byodbUrlEncrypted: row.db_url_sealed,
    };
    return runWithTenant(context, work);
  }

  private async migrateSharedSchema(tenant: TenantRecord) {
    const runner = this.source.createQueryRunner();
    try {
      await runner.connect();
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      try {
        await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: tenant.schema_name, role: tenant.role_name });
      } finally {
        await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      }
    } finally {
      await runner.release();
    }
  }

  /**
   * Opens the tenant's own database at the address the outbound guard checked,
   * refuses Baton's own control-plane database and a database another
   * workspace has claimed, claims it for `tenantId`, and migrates schema
   * `baton` there. Any failure is the one uniform refusal; the real reason is
   * logged for the operator, without the URL.
   */
  private async migrateOwnDatabase(url: string, tenantId: string) {
    let own: DataSource | undefined;
    try {
      const target = await this.byodbGuard.check(byodbHost(url));
      own = await new DataSource(postgresOptions(url, 1, false, target, BYODB_CONNECT_TIMEOUT_MS)).initialize();
      const runner = own.createQueryRunner();
      try {
        await runner.connect();
        if (await this.isControlPlane(await this.identityOf(runner))) throw new Error("the database is Baton's control plane");
        await runner.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(BYODB_SCHEMA)}`);
        const owner = `${quoteIdent(BYODB_SCHEMA)}.${quoteIdent(OWNER_TABLE)}`;
        await runner.query(
          `CREATE TABLE IF NOT EXISTS ${owner} (only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row), tenant_id text NOT NULL, claimed_at timestamptz NOT NULL DEFAULT now())`,
        );
        // One row at most: of two workspaces claiming one database at once, the second insert does nothing and sees the first.
        await runner.query(`INSERT INTO ${owner} (tenant_id) VALUES ($1) ON CONFLICT (only_row) DO NOTHING`, [tenantId]);
        const [claim] = (await runner.query(`SELECT tenant_id FROM ${owner}`)) as { tenant_id: string }[];
        if (claim?.tenant_id !== tenantId) throw new Error('the database is claimed by another workspace');
        await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: BYODB_SCHEMA, role: null });
      } finally {
        await runner.release();
      }
    } catch (error) {
      const reason = redactSecrets((error as Error).message ?? String(error)).replace(url, '[url]');
      this.logger.warn({ msg: 'tenant database refused', tenant_id: tenantId, reason });
      throw TenantError.databaseRefused(error);
    } finally {
      if (own?.isInitialized) await own.destroy().catch(() => undefined);
    }
  }

  /**
   * Which server and database a connection reaches. The cluster's
   * `system_identifier` may be closed to an ordinary role (some managed
   * services revoke `pg_control_system()`), so the server's start time and
   * the database's oid, which every role can read, identify it as well.
   */
  private async identityOf(runner: { query: (sql: string) => Promise<unknown> }): Promise<DatabaseIdentity> {
    const [row] = (await runner.query(
      'SELECT current_database() AS db, d.oid::text AS oid, pg_postmaster_start_time()::text AS started FROM pg_database d WHERE d.datname = current_database()',
    )) as { db: string; oid: string; started: string }[];
    let system: string | null = null;
    try {
      const [id] = (await runner.query('SELECT system_identifier::text AS id FROM pg_control_system()')) as { id: string }[];
      system = id?.id ?? null;
    } catch {
      // Not readable by this role: the start time and oid decide alone.
    }
    return { system, db: row.db, oid: row.oid, started: row.started };
  }

  /** Whether `identity` is the control plane's own database (same cluster and database, by either identity). */
  private async isControlPlane(identity: DatabaseIdentity): Promise<boolean> {
    this.controlIdentity ??= this.identityOf(this.source);
    this.controlIdentity.catch(() => (this.controlIdentity = undefined));
    const control = await this.controlIdentity;
    if (identity.db !== control.db) return false;
    const sameCluster = identity.system !== null && identity.system === control.system;
    return sameCluster || (identity.oid === control.oid && identity.started === control.started);
  }

  private requireHosted(what: string) {
    if (!this.config.isHosted) throw TenantError.notHosted(what);
  }
}
