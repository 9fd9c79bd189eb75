import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions, QueryRunner } from 'typeorm';
import { quoteIdent, serverKeyOf, TenantServers } from '../../libs/tenancy';
import { redactSecrets } from '../../libs/secrets';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { postgresOptions } from '../database/data-source-options';
import {
  closeSource,
  copySchema,
  CopyOutcome,
  dropSchema,
  freezeWrites,
  isCurrent,
  MovingTenant,
  prepareTarget,
  releaseMoveLock,
  restoreRights,
  rowCounts,
  sameCluster,
  schemaExists,
  sizesOf,
  tenantRow,
  tryMoveLock,
} from '../modules/tenants/tenant-move';
import { Progress } from './progress';

const USAGE = `usage: npm run tenant:move -- --tenant <id> --to <postgres-url> [--dry-run] [--keep-old] [--grace SECONDS] [--batch N]

Moves one hosted tenant's schema (tables, rows, sequences, its role and grants) to another server
of SERVICE_TENANT_DB_URLS while the tenant is in use. Its reads go on during the copy; its writes
are refused (503 with Retry-After) from the freeze to the switch, seconds for most tenants; other
tenants never pause. The copy is verified (row counts and checksums of every table) before the
control plane switches the tenant to the new server; its old schema and role are dropped once
instances have forgotten where it was (SERVICE_TOKEN_CACHE_SECONDS plus 2 s, or --grace).
Progress goes to stderr, one JSON summary to stdout. Ctrl-C or SIGTERM before the switch undoes
the move: the tenant stays where it was, writable.

  --tenant ID      the tenant (workspace) id
  --to URL         the server to move it to: one of SERVICE_TENANT_DB_URLS (matched by host, port
                   and database; the connection is made with the configured URL)
  --dry-run        check and say what would happen (sizes, rows, target reachable); change nothing
  --keep-old       leave the old schema and role in place (closed to the tenant), and print the SQL
                   that drops them
  --grace S        seconds between the switch and dropping the old schema (default:
                   SERVICE_TOKEN_CACHE_SECONDS + 2)
  --batch N        rows per copy batch (100-50000, default 5000)

A run holds a lock on the control plane for the tenant; a tenant whose moving_to is set while no
run holds that lock was left by a run that died (killed, its machine lost): the next run undoes
that attempt first (grants restored, the target's copy dropped), then moves the tenant.

Exit status: 0 moved (dry run: nothing in the way); 1 the move failed and was undone (the tenant
is where it was, writable); 2 bad arguments, or a tenant or target a move refuses; 3 the move
failed and undoing it failed too (run the command again: it finishes the undoing); 4 moved, but
dropping the old schema failed (SQL to drop it on stderr); 75 another run is moving this tenant;
78 bad configuration; 130 interrupted before the switch, and undone.`;

const EXIT_UNDO_FAILED = 3;
const EXIT_OLD_KEPT = 4;
const EXIT_BUSY = 75;
const EXIT_INTERRUPTED = 130;
/** Seconds added to the token cache's lifetime before the old schema is dropped. */
const GRACE_MARGIN_S = 2;
/** How long the freeze waits for the tenant's running writes, per attempt. */
const FREEZE_LOCK_WAIT_MS = 5000;

interface Options {
  tenant: string;
  to: string;
  dryRun: boolean;
  keepOld: boolean;
  graceSeconds?: number;
  batch: number;
}

function usageError(message: string): never {
  process.stderr.write(`${message}\n\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv: string[]): Options {
  const options: Partial<Options> & { dryRun: boolean; keepOld: boolean; batch: number } = { dryRun: false, keepOld: false, batch: 5000 };
  const integer = (name: string, raw: string | undefined, min: number, max: number) => {
    const n = Number(raw);
    if (raw === undefined || !Number.isInteger(n) || n < min || n > max) usageError(`${name} takes a whole number from ${min} to ${max}`);
    return n;
  };
  const text = (name: string, raw: string | undefined) => {
    if (raw === undefined || raw === '' || raw.startsWith('--')) usageError(`${name} needs a value`);
    return raw;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (flag === '--dry-run') options.dryRun = true;
    else if (flag === '--keep-old') options.keepOld = true;
    else if (flag === '--tenant') options.tenant = text('--tenant', inline ?? argv[++i]);
    else if (flag === '--to') options.to = text('--to', inline ?? argv[++i]);
    else if (flag === '--grace') options.graceSeconds = integer('--grace', inline ?? argv[++i], 0, 86_400);
    else if (flag === '--batch') options.batch = integer('--batch', inline ?? argv[++i], 100, 50_000);
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else usageError(`unknown argument: ${arg}`);
  }
  if (!options.tenant) usageError('--tenant is required');
  if (!options.to) usageError('--to is required');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(options.tenant)) usageError(`--tenant must be a tenant id (a UUID), not ${JSON.stringify(options.tenant.slice(0, 60))}`);
  try {
    const url = new URL(options.to);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error('protocol');
  } catch {
    usageError('--to must be a postgres:// URL, one of SERVICE_TENANT_DB_URLS');
  }
  return options as Options;
}

function say(line: string) {
  process.stderr.write(`${line}\n`);
}

/** A move the command refuses (exit 2): the tenant or the target is not one it may move. */
class Refused extends Error {}
/** SIGINT or SIGTERM before the switch. */
class Interrupted extends Error {
  constructor(signal: string) {
    super(`interrupted by ${signal}`);
  }
}

function errorText(error: unknown): string {
  return redactSecrets(error instanceof Error ? error.message : String(error));
}

function bytesText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The SQL that drops what a move left on `server` (run there as a user that may). */
function dropSql(schema: string, role: string | null): string {
  return `DROP SCHEMA ${quoteIdent(schema)} CASCADE;${role ? ` DROP OWNED BY ${quoteIdent(role)}; DROP ROLE ${quoteIdent(role)};` : ''}`;
}

class Mover {
  private signal: string | undefined;
  private readonly runners: QueryRunner[] = [];

  constructor(
    private readonly config: AppConfig,
    private readonly options: Options,
    private readonly control: DataSource,
    private readonly servers: TenantServers,
  ) {}

  /** SIGINT or SIGTERM: the move stops at the next batch and is undone (before the switch). */
  interrupt(signal: string) {
    if (!this.signal) say(`${signal}: stopping${this.switched ? ' (the tenant has moved already: its old schema is kept)' : '; the move will be undone'}`);
    this.signal = signal;
  }

  private switched = false;

  private check() {
    if (this.signal && !this.switched) throw new Interrupted(this.signal);
  }

  private async runnerOn(key: string | null): Promise<QueryRunner> {
    const runner = (await this.servers.source(key)).createQueryRunner();
    await runner.connect();
    this.runners.push(runner);
    return runner;
  }

  async close() {
    for (const runner of this.runners) await runner.release().catch(() => undefined);
  }

  /** The key of the server the tenant is on. */
  private placedOn(tenant: MovingTenant): string {
    return tenant.db_server ?? (this.servers.controlKey as string);
  }

  async run(): Promise<{ code: number; summary: Record<string, unknown> }> {
    const { options } = this;
    const toKey = serverKeyOf(options.to);
    const head = { tenant_id: options.tenant, to: toKey, dry_run: options.dryRun };
    const control = await this.runnerOn(null);
    const tenant = await tenantRow(control, options.tenant);
    if (!tenant) throw new Refused(`no tenant ${options.tenant} in the control plane`);
    if (tenant.db_url_sealed) throw new Refused(`tenant ${tenant.id} keeps its data in its own database (BYODB): that database is its placement, and a move has nothing to copy`);
    if (!tenant.role_name) throw new Refused(`tenant ${tenant.id} has no role of its own: a move needs one (its grants are how its writes are frozen)`);
    if (this.placedOn(tenant) === toKey) throw new Refused(`tenant ${tenant.id} is on ${toKey} already`);
    if (!isCurrent(tenant)) throw new Refused(`tenant ${tenant.id} is behind the tenant migrations (at ${tenant.migrated_to ?? 'none'}): run npm run migrate first`);
    const role = tenant.role_name;
    const schema = tenant.schema_name;

    if (!(await tryMoveLock(control, tenant.id))) {
      const error = `another run is moving tenant ${tenant.id} (to ${tenant.moving_to ?? 'a server'}); it holds the tenant's move lock`;
      say(error);
      return { code: EXIT_BUSY, summary: { ...head, moved: false, error } };
    }
    try {
      // Read again under the lock: a run that held it may have moved the tenant meanwhile.
      Object.assign(tenant, await tenantRow(control, tenant.id));
      if (this.placedOn(tenant) === toKey) throw new Refused(`tenant ${tenant.id} is on ${toKey} already`);
      const from = this.placedOn(tenant);
      const source = await this.runnerOn(tenant.db_server);
      if (tenant.moving_to) {
        say(`tenant ${tenant.id}: a move to ${tenant.moving_to} was left by a run that is gone; undoing it first`);
        if (options.dryRun) throw new Refused(`tenant ${tenant.id} has a move to ${tenant.moving_to} left by a run that is gone: run without --dry-run to undo it and move`);
        await this.undo(control, source, tenant, tenant.moving_to, undefined);
      }
      let target: QueryRunner;
      try {
        target = await this.runnerOn(toKey);
        await target.query('SELECT 1');
      } catch (error) {
        throw new Refused(`the target ${toKey} cannot be reached: ${errorText(error)}`);
      }
      if (await schemaExists(target, schema)) {
        throw new Refused(`the target ${toKey} has a schema ${schema} already (left by an earlier move?); the tenant is on ${from}. Drop it there first: ${dropSql(schema, null)}`);
      }
      if (options.dryRun) return { code: 0, summary: { ...head, ...(await this.dryRun(source, tenant, from, toKey)) } };
      return await this.move(control, source, target, tenant, from, toKey, schema, role);
    } finally {
      await releaseMoveLock(control, tenant.id).catch(() => undefined);
    }
  }

  private async dryRun(source: QueryRunner, tenant: MovingTenant, from: string, toKey: string) {
    const sizes = await sizesOf(source, tenant.schema_name);
    const rows = sizes.reduce((n, t) => n + t.rows, 0);
    const bytes = sizes.reduce((n, t) => n + t.bytes, 0);
    say(`tenant ${tenant.id} (${tenant.name}): schema ${tenant.schema_name} on ${from}, ${sizes.length} tables, ${rows} rows, ${bytesText(bytes)}`);
    for (const t of sizes.filter((t) => t.rows > 0)) say(`  ${t.table}: ${t.rows} rows, ${bytesText(t.bytes)}`);
    say(`target ${toKey}: reachable, configured, no schema ${tenant.schema_name}; nothing was changed (dry run)`);
    return {
      moved: false,
      from,
      tables: sizes.length,
      rows,
      bytes,
      per_table: sizes,
      grace_seconds: this.graceSeconds(),
    };
  }

  private graceSeconds(): number {
    return this.options.graceSeconds ?? this.config.tokenCacheSeconds + GRACE_MARGIN_S;
  }

  private async move(control: QueryRunner, source: QueryRunner, target: QueryRunner, tenant: MovingTenant, from: string, toKey: string, schema: string, role: string) {
    const started = Date.now();
    const head = { tenant_id: tenant.id, from, to: toKey, dry_run: false };
    const marked: unknown[] = await control.query('UPDATE control.tenants SET moving_to = $2 WHERE id = $1 AND moving_to IS NULL RETURNING id', [tenant.id, toKey]);
    if (marked.length === 0) throw new Error('the tenant was marked moving by another run meanwhile');
    let createdRole = false;
    let frozenAt: number | undefined;
    let copy: CopyOutcome | undefined;
    let switchedAt: number | undefined;
    try {
      say(`tenant ${tenant.id}: preparing schema ${schema} on ${toKey}`);
      createdRole = await prepareTarget(target, schema, role);
      this.check();
      say(`tenant ${tenant.id}: freezing writes on ${from}`);
      await freezeWrites(source, schema, role, FREEZE_LOCK_WAIT_MS);
      frozenAt = Date.now();
      this.check();
      const total = await rowCounts(source, schema);
      say(`tenant ${tenant.id}: copying ${total} rows`);
      const progress = new Progress(total, 'rows');
      copy = await copySchema(source, target, schema, role, {
        batch: this.options.batch,
        beforeBatch: () => this.check(),
        onRows: (n) => progress.tick(n),
      });
      progress.finish();
      say(`tenant ${tenant.id}: ${copy.rows} rows in ${copy.tables.length} tables and ${copy.sequences} sequences copied and verified`);
      this.check();
      await closeSource(source, schema, role);
      const switched: unknown[] = await control.query(
        'UPDATE control.tenants SET db_server = $2, moving_to = NULL, updated_at = now() WHERE id = $1 AND moving_to = $3 RETURNING id',
        [tenant.id, this.servers.placementOf(toKey), toKey],
      );
      if (switched.length === 0) throw new Error('the control plane no longer marks the tenant as moving here: not switched');
      this.switched = true;
      switchedAt = Date.now();
    } catch (error) {
      const interrupted = error instanceof Interrupted;
      say(`tenant ${tenant.id}: ${interrupted ? error.message : `move failed: ${errorText(error)}`}; undoing it`);
      try {
        await this.undo(control, source, tenant, toKey, createdRole);
      } catch (undoError) {
        say(`tenant ${tenant.id}: undoing failed: ${errorText(undoError)}; run the command again to finish undoing it`);
        return { code: EXIT_UNDO_FAILED, summary: { ...head, moved: false, undone: false, error: errorText(error), undo_error: errorText(undoError) } };
      }
      say(`tenant ${tenant.id}: undone; it is on ${from}, writable`);
      return { code: interrupted ? EXIT_INTERRUPTED : 1, summary: { ...head, moved: false, undone: true, error: interrupted ? error.message : errorText(error) } };
    }
    const pauseMs = switchedAt - (frozenAt as number);
    say(`tenant ${tenant.id}: switched to ${toKey}; its writes were refused for ${(pauseMs / 1000).toFixed(2)} s`);

    const shared = await sameCluster(source, target, role).catch(() => true);
    const dropRole = shared ? null : role;
    let oldSchema: 'dropped' | 'kept' = 'kept';
    let code = 0;
    if (!this.options.keepOld) {
      const grace = this.graceSeconds();
      say(`tenant ${tenant.id}: dropping the old schema on ${from} in ${grace} s (instances forget its old place by then)`);
      const until = Date.now() + grace * 1000;
      while (Date.now() < until && !this.signal) await new Promise((resolve) => setTimeout(resolve, Math.min(200, until - Date.now())));
      if (!this.signal) {
        try {
          await dropSchema(source, schema, dropRole);
          oldSchema = 'dropped';
          say(`tenant ${tenant.id}: old schema ${schema} dropped on ${from}`);
        } catch (error) {
          say(`tenant ${tenant.id}: dropping the old schema failed: ${errorText(error)}`);
          code = EXIT_OLD_KEPT;
        }
      }
    }
    if (oldSchema === 'kept') say(`tenant ${tenant.id}: old schema kept on ${from} (closed to the tenant); to drop it, run there: ${dropSql(schema, dropRole)}`);
    return {
      code,
      summary: {
        ...head,
        moved: true,
        tables: copy.tables.length,
        sequences: copy.sequences,
        rows: copy.rows,
        per_table: copy.tables.filter((t) => t.rows > 0).map((t) => ({ table: t.table, rows: t.rows })),
        verified: true,
        pause_ms: pauseMs,
        old_schema: oldSchema,
        ...(oldSchema === 'kept' ? { drop_old_sql: dropSql(schema, dropRole) } : {}),
        seconds: Number(((Date.now() - started) / 1000).toFixed(3)),
      },
    };
  }

  /**
   * Undoes a move to `toKey` that did not switch: the tenant's rights on its schema back (first:
   * it is writable again from here on), the target's copy dropped (its role too when this run made
   * it, or, for a run that is gone, when the target's cluster is not the source's), `moving_to`
   * cleared. A target that cannot be reached keeps its copy: the error says so, and a later move
   * there refuses until it is dropped.
   */
  private async undo(control: QueryRunner, source: QueryRunner, tenant: MovingTenant, toKey: string, createdRole: boolean | undefined) {
    const role = tenant.role_name as string;
    await restoreRights(source, tenant.schema_name, role);
    let leftover: unknown;
    if (this.servers.find(toKey) && toKey !== this.placedOn(tenant)) {
      try {
        const target = await this.runnerOn(toKey);
        const dropRole = createdRole ?? !(await sameCluster(source, target, role));
        if ((await schemaExists(target, tenant.schema_name)) || (createdRole && dropRole)) await dropSchema(target, tenant.schema_name, dropRole ? role : null);
      } catch (error) {
        leftover = error;
      }
    }
    await control.query('UPDATE control.tenants SET moving_to = NULL WHERE id = $1 AND moving_to = $2', [tenant.id, toKey]);
    if (leftover) {
      throw new Error(
        `the tenant is on its server again, writable, but its copy on ${toKey} could not be dropped (${errorText(leftover)}); drop it there: ${dropSql(tenant.schema_name, createdRole ? role : null)}`,
      );
    }
  }
}

/**
 * `npm run tenant:move`: one hosted tenant's schema from the server it is on to another of
 * SERVICE_TENANT_DB_URLS, online (see USAGE and docs/decisions.md, "Moving a tenant").
 */
async function main() {
  const options = parseArgs(process.argv.slice(2));
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      say(error.message);
      process.exit(78);
    }
    throw error;
  }
  if (!config.isHosted || !config.dbUrl) {
    say('tenant:move needs SERVICE_MODE=hosted and SERVICE_DB_URL: a self-hosted instance has one local tenant');
    process.exit(78);
  }
  const toKey = serverKeyOf(options.to);
  const listed = config.tenantDbUrls.map(serverKeyOf);
  if (!listed.includes(toKey)) usageError(`--to ${toKey} is not one of SERVICE_TENANT_DB_URLS (${listed.join(', ') || 'none listed'}): instances would not find the tenant there`);
  Logger.overrideLogger(new JsonLogger('warn', (line) => process.stderr.write(line + '\n')));
  const shared = postgresOptions(config.dbUrl, 3, true) as DataSourceOptions & { extra: object };
  const control = await new DataSource({ ...shared, extra: { ...shared.extra, application_name: 'baton-tenant-move' } }).initialize();
  const servers = new TenantServers(control, config.dbUrl, config.tenantDbUrls, (url) => {
    const pool = postgresOptions(url, 3, false) as DataSourceOptions & { extra: object };
    return { ...pool, extra: { ...pool.extra, application_name: 'baton-tenant-move' } };
  });
  const mover = new Mover(config, options, control, servers);
  process.on('SIGINT', () => mover.interrupt('SIGINT'));
  process.on('SIGTERM', () => mover.interrupt('SIGTERM'));
  try {
    const { code, summary } = await mover.run();
    process.stdout.write(JSON.stringify(summary) + '\n');
    process.exitCode = code;
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    say(error.message);
    process.stdout.write(JSON.stringify({ tenant_id: options.tenant, to: toKey, dry_run: options.dryRun, moved: false, error: error.message }) + '\n');
    process.exitCode = 2;
  } finally {
    await mover.close();
    await servers.closeAll();
    await control.destroy().catch(() => undefined);
  }
}

main().catch((error) => {
  process.stderr.write(`tenant:move failed: ${errorText(error)}\n`);
  process.exit(1);
});
