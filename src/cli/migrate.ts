import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions } from 'typeorm';
import { OutboundGuard } from '../../libs/outbound-guard';
import { redactSecrets } from '../../libs/secrets';
import { JsonLogger } from '../common/logging/json-logger';
import { sealerFor } from '../common/sealer';
import { AppConfig } from '../config/app-config';
import { configOrExit } from './cli-config';
import { applySharedMigrations, pendingSharedMigrations, sharedMigrationTarget } from '../database/database-migrator';
import { postgresOptions, sharedDataSourceOptions } from '../database/data-source-options';
import { TenantServers } from '../../libs/tenancy';
import { acquireMigrationLock, describeHolder, lockLabel, MigrationLockBusy } from '../database/migration-lock';
import { OwnDatabaseMigrator } from '../modules/tenants/own-database-migrator.service';
import { eachLimited, TenantBehind, tenantCount, tenantsBehind, TenantOutcome, upgradeTenant } from '../modules/tenants/tenant-upgrade';
import { Progress } from './progress';

const USAGE = `usage: npm run migrate -- [--dry-run] [--concurrency N] [--lock-wait SECONDS]

Migrates the shared database (the control plane when hosted) and then every hosted tenant's schema
(on whichever server of SERVICE_TENANT_DB_URLS holds it) or own database that is behind. Progress goes to stderr, one JSON summary to stdout.

  --dry-run           list what would be migrated; change nothing, take no lock
  --concurrency N     tenants migrated at once (1-32, default 4)
  --lock-wait S       how long to wait for another runner's migration lock (default 600)

Exit status: 0 all migrated; 1 some tenants failed (named on stderr and in the summary; the others
were migrated); 2 bad arguments; 3 the shared database failed (no tenant was tried); 75 another
runner kept the lock past --lock-wait; 78 bad configuration.`;

/** Exit status when the shared database (the control plane) failed: nothing else was tried. */
const EXIT_SHARED_FAILED = 3;
/** Exit status when another runner kept the lock (EX_TEMPFAIL: try again later). */
const EXIT_LOCKED = 75;

interface Options {
  dryRun: boolean;
  concurrency: number;
  lockWaitSeconds: number;
}

function usageError(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const options: Options = { dryRun: false, concurrency: 4, lockWaitSeconds: 600 };
  const integer = (name: string, raw: string | undefined, min: number, max: number) => {
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < min || n > max) usageError(`${name} takes a whole number from ${min} to ${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--dry-run') options.dryRun = true;
    else if (flag === '--concurrency') options.concurrency = integer('--concurrency', inline ?? argv[++i], 1, 32);
    else if (flag === '--lock-wait') options.lockWaitSeconds = integer('--lock-wait', inline ?? argv[++i], 0, 86_400);
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else usageError(`unknown argument: ${arg}`);
  }
  return options;
}

function say(line: string) {
  process.stderr.write(`${line}\n`);
}

function open(config: AppConfig, concurrency: number): Promise<DataSource> {
  const options = sharedDataSourceOptions(config);
  if (options.type !== 'postgres') return new DataSource(options).initialize();
  // The lock's connection, the control-plane writes, and one per tenant in flight.
  const size = concurrency + 2;
  return new DataSource({ ...options, poolSize: size, extra: { ...options.extra, max: size, application_name: 'baton-migrate' } }).initialize();
}

async function dryRun(source: DataSource, config: AppConfig): Promise<Record<string, unknown>> {
  const shared = await pendingSharedMigrations(source, config);
  const { schema } = sharedMigrationTarget(config);
  say(`shared database (${schema ?? 'SQLite file'}): ${shared.length ? `${shared.length} pending: ${shared.join(', ')}` : 'up to date'}`);
  if (!config.isHosted) return { shared: { target: schema ?? 'sqlite', pending: shared } };
  // A control plane that does not exist yet has no tenants.
  const hasTenants = shared.length === 0 || ((await source.query("SELECT to_regclass('control.tenants') IS NOT NULL AS ok")) as { ok: boolean }[])[0].ok;
  const total = hasTenants ? await tenantCount(source) : 0;
  const behind = hasTenants ? await tenantsBehind(source) : [];
  for (const t of behind)
    say(
      `tenant ${t.id} (${t.storage === 'schema' ? `schema ${t.schema_name} on ${t.db_server ?? 'the control database'}` : 'own database'}): ${t.pending.length} pending, from ${t.pending[0]}`,
    );
  say(`${behind.length} of ${total} tenants behind; nothing was changed (dry run)`);
  return {
    shared: { target: schema, pending: shared },
    tenants: { total, behind: behind.length, pending: behind.map((t) => ({ tenant_id: t.id, storage: t.storage, pending: t.pending })) },
  };
}

/**
 * Every tenant behind, `options.concurrency` at a time, each on the server its schema is placed on
 * (or its own database); one tenant's failure is noted and the others go on. Tallied per server.
 */
async function migrateTenants(source: DataSource, config: AppConfig, options: Options, behind: TenantBehind[]) {
  const servers = new TenantServers(source, config.dbUrl, config.tenantDbUrls, (url) => {
    const pool = postgresOptions(url, options.concurrency, false) as DataSourceOptions & { extra: object };
    return { ...pool, extra: { ...pool.extra, application_name: 'baton-migrate' } };
  });
  const deps = {
    source,
    servers,
    secretBox: sealerFor(config, 'byodb-connection-url'),
    ownDatabases: new OwnDatabaseMigrator(source, new OutboundGuard({ enforce: config.isHosted, allowedHosts: config.byodbAllowedHosts })),
  };
  const progress = new Progress(behind.length, 'tenants');
  const failed: Extract<TenantOutcome, { ok: false }>[] = [];
  let migrated = 0;
  // Per placement: an own database counts under `own databases`, a schema under its server.
  const perServer = new Map<string, { server: string; behind: number; migrated: number; failed: number }>();
  const tally = (tenant: (typeof behind)[number]) => {
    const server = tenant.storage === 'own-database' ? 'own databases' : (tenant.db_server ?? servers.controlKey ?? 'control');
    let row = perServer.get(server);
    if (!row) perServer.set(server, (row = { server, behind: 0, migrated: 0, failed: 0 }));
    return row;
  };
  for (const tenant of behind) tally(tenant).behind += 1;
  try {
    await eachLimited(behind, options.concurrency, async (tenant) => {
      const outcome = await upgradeTenant(deps, tenant);
      if (outcome.ok) {
        migrated += 1;
        tally(tenant).migrated += 1;
      } else {
        failed.push(outcome);
        tally(tenant).failed += 1;
        progress.note(`tenant ${outcome.id} failed: ${outcome.error}`);
      }
      progress.tick();
    });
  } finally {
    await servers.closeAll();
  }
  progress.finish();
  for (const row of perServer.values()) say(`${row.server}: ${row.migrated} of ${row.behind} tenants migrated${row.failed ? `, ${row.failed} failed` : ''}`);
  return { migrated, failed, perServer };
}

async function migrate(source: DataSource, config: AppConfig, options: Options): Promise<{ summary: Record<string, unknown>; ok: boolean; sharedFailed?: boolean }> {
  const { schema } = sharedMigrationTarget(config);
  const started = Date.now();
  const lock =
    config.databaseType === 'postgres'
      ? await acquireMigrationLock(source, {
          waitMs: options.lockWaitSeconds * 1000,
          label: lockLabel('baton migrate'),
          reportEveryMs: 10_000,
          onWait: (holder, waited) => say(`waiting for the migration lock (${Math.round(waited / 1000)} s): held by ${holder ? describeHolder(holder) : 'another runner'}`),
        })
      : undefined;
  try {
    let sharedApplied: string[];
    try {
      sharedApplied = await applySharedMigrations(source, config);
    } catch (error) {
      const message = redactSecrets(error instanceof Error ? error.message : String(error));
      say(`shared database (${schema ?? 'SQLite file'}) failed: ${message}; no tenant was migrated`);
      return { ok: false, sharedFailed: true, summary: { shared: { target: schema ?? 'sqlite', applied: [], error: message } } };
    }
    say(`shared database (${schema ?? 'SQLite file'}): ${sharedApplied.length ? `applied ${sharedApplied.join(', ')}` : 'up to date'}`);
    const shared = { target: schema ?? 'sqlite', applied: sharedApplied };
    if (!config.isHosted) return { ok: true, summary: { shared } };

    const total = await tenantCount(source);
    const behind = await tenantsBehind(source);
    say(`${behind.length} of ${total} tenants behind; migrating ${Math.min(options.concurrency, Math.max(1, behind.length))} at a time`);
    const tenantsStarted = Date.now();
    const { migrated, failed, perServer } = await migrateTenants(source, config, options, behind);
    const tenantSeconds = (Date.now() - tenantsStarted) / 1000;
    say(
      `${migrated} of ${behind.length} tenants migrated in ${tenantSeconds.toFixed(1)} s${
        failed.length
          ? `; ${failed.length} failed: ${failed
              .slice(0, 20)
              .map((f) => f.id)
              .join(', ')}${failed.length > 20 ? ` and ${failed.length - 20} more (each named above)` : ''}`
          : ''
      }`,
    );
    return {
      ok: failed.length === 0,
      summary: {
        shared,
        tenants: { total, behind: behind.length, migrated, failed: failed.length, seconds: Number(tenantSeconds.toFixed(3)) },
        servers: [...perServer.values()],
        failed: failed.map((f) => ({ tenant_id: f.id, error: f.error })),
        seconds: Number(((Date.now() - started) / 1000).toFixed(3)),
      },
    };
  } finally {
    await lock?.release();
  }
}

/**
 * `npm run migrate`: the shared database, then every hosted tenant behind, under the migration
 * lock, without starting the application. One tenant's failure is reported with its id and
 * error and the others go on; the exit status says whether everything is current.
 */
async function main() {
  const options = parseArgs(process.argv.slice(2));
  const config = configOrExit();
  // Library logs (a BYODB refusal's reason) go to stderr: stdout carries only the summary.
  Logger.overrideLogger(new JsonLogger('warn', (line) => process.stderr.write(line + '\n')));
  const source = await open(config, options.concurrency);
  const head = { database: config.databaseType, mode: config.mode };
  try {
    if (options.dryRun) {
      process.stdout.write(JSON.stringify({ dry_run: true, ...head, ...(await dryRun(source, config)) }) + '\n');
      return;
    }
    const { summary, ok, sharedFailed } = await migrate(source, config, options);
    const failed = (summary.failed as unknown[] | undefined)?.length ?? 0;
    process.stdout.write(JSON.stringify({ migrated: ok, ...head, tenants_behind: sharedFailed ? null : failed, ...summary }) + '\n');
    if (sharedFailed) process.exitCode = EXIT_SHARED_FAILED;
    else if (!ok) process.exitCode = 1;
  } catch (error) {
    if (!(error instanceof MigrationLockBusy)) throw error;
    say(`${error.message}: nothing was migrated`);
    process.stdout.write(JSON.stringify({ migrated: false, ...head, error: 'migration lock held by another runner', holder: error.holder }) + '\n');
    process.exitCode = EXIT_LOCKED;
  } finally {
    await source.destroy().catch(() => undefined);
  }
}

main().catch((error) => {
  process.stderr.write(`migrate failed: ${redactSecrets(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});
