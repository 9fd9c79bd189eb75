import { DataSource } from 'typeorm';
import { latestMigrationName, runMigrations, SecretBox, TenantServers } from '../../../libs/tenancy';
import { redactSecrets } from '../../../libs/secrets';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { OwnDatabaseMigrator } from './own-database-migrator.service';
import { TenantRecord } from './tenant.entity';

/** One hosted tenant behind the tenant migration set, and what it still needs. */
export interface TenantBehind {
  id: string;
  /** `schema`: a schema on the shared cluster; `own-database`: the tenant's own database (BYODB). */
  storage: 'schema' | 'own-database';
  schema_name: string;
  role_name: string | null;
  db_url_sealed: string | null;
  /** The server holding the schema (`TenantServers` key), null for the control plane's database. */
  db_server: string | null;
  /** Pending migrations, from the last one recorded for the tenant (all of them when none is). */
  pending: string[];
}

/** What happened to one tenant in a run. */
export type TenantOutcome = { id: string; ok: true; applied: number } | { id: string; ok: false; error: string };

export interface TenantUpgradeDeps {
  /** The control plane's database. */
  source: DataSource;
  /** The servers holding tenant schemas (the control plane's among them). */
  servers: TenantServers;
  secretBox: SecretBox;
  ownDatabases: OwnDatabaseMigrator;
}

const NAMES = TENANT_MIGRATIONS.map((Migration) => new Migration().name ?? Migration.name);

/** Tenants whose recorded migration is not the latest, oldest first. */
export async function tenantsBehind(source: DataSource): Promise<TenantBehind[]> {
  const latest = latestMigrationName(TENANT_MIGRATIONS);
  const rows = await source
    .getRepository(TenantRecord)
    .createQueryBuilder('t')
    .where('t.migrated_to IS DISTINCT FROM :latest', { latest })
    .orderBy('t.created_at', 'ASC')
    .addOrderBy('t.id', 'ASC')
    .getMany();
  return rows.map((t) => ({
    id: t.id,
    storage: t.db_url_sealed ? 'own-database' : 'schema',
    schema_name: t.schema_name,
    role_name: t.role_name,
    db_url_sealed: t.db_url_sealed,
    db_server: t.db_server,
    pending: NAMES.slice(t.migrated_to ? NAMES.indexOf(t.migrated_to) + 1 : 0),
  }));
}

/** Number of hosted tenants in the control plane. */
export async function tenantCount(source: DataSource): Promise<number> {
  return source.getRepository(TenantRecord).count();
}

/**
 * Brings one tenant to the latest tenant migration, in one transaction on its schema (on the
 * server it is placed on) or its own database, then records it in the control plane. Never throws: a failure is the outcome, with
 * the database's message (secrets redacted), so one broken tenant leaves the others to go on.
 */
export async function upgradeTenant(deps: TenantUpgradeDeps, tenant: TenantBehind): Promise<TenantOutcome> {
  try {
    let applied = tenant.pending.length;
    if (tenant.db_url_sealed) {
      await deps.ownDatabases.migrate(deps.secretBox.open(tenant.db_url_sealed), tenant.id);
    } else {
      const runner = (await deps.servers.source(tenant.db_server)).createQueryRunner();
      try {
        await runner.connect();
        applied = (await runMigrations(runner, TENANT_MIGRATIONS, { dialect: 'postgres', schema: tenant.schema_name, role: tenant.role_name })).length;
      } finally {
        await runner.release();
      }
    }
    await deps.source.getRepository(TenantRecord).update({ id: tenant.id }, { migrated_to: latestMigrationName(TENANT_MIGRATIONS), updated_at: new Date() });
    return { id: tenant.id, ok: true, applied };
  } catch (error) {
    return { id: tenant.id, ok: false, error: redactSecrets(error instanceof Error ? error.message : String(error)) };
  }
}

/** Runs `work` over `items` with at most `limit` at once, in order of start. */
export async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
