import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions, QueryRunner } from 'typeorm';
import { serverKeyOf, TenantServers } from '../../libs/tenancy';
import { redactSecrets } from '../../libs/secrets';
import { JsonLogger } from '../common/logging/json-logger';
import { AppConfig } from '../config/app-config';
import { configOrExit } from './cli-config';
import { postgresOptions } from '../database/data-source-options';
import { lockLabel } from '../database/migration-lock';
import {
  closeSource,
  dropSchema,
  dropSql,
  freezeWrites,
  holdMoveLock,
  isCurrent,
  MovingTenant,
  prepareTarget,
  sameCluster,
  schemaExists,
  sizesOf,
  tenantRow,
  undoMove,
} from '../modules/tenants/tenant-move';
import { primaryKeys, noteChanges } from '../modules/tenants/tenant-changes';
import { BulkCopy, bulkCopy, CatchUp, catchUp, copiedTables, rowCounts } from '../modules/tenants/tenant-copy';
import { Options, usageError } from './tenant-move-args';
import { Progress } from './progress';

const EXIT_UNDO_FAILED = 3;
const EXIT_OLD_KEPT = 4;
const EXIT_BUSY = 75;
const EXIT_INTERRUPTED = 130;
/** Seconds added to the token cache's lifetime before the old schema is dropped. */
const GRACE_MARGIN_S = 2;
/** How long the freeze waits for the tenant's running writes, per attempt. */
const FREEZE_LOCK_WAIT_MS = 5000;

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
    if (options.undo) return this.undoLeft();
    const toKey = serverKeyOf(options.to);
    const head = { tenant_id: options.tenant, to: toKey, dry_run: options.dryRun };
    const control = await this.runnerOn(null);
    const tenant = await tenantRow(control, options.tenant);
    if (!tenant) throw new Refused(`no tenant ${options.tenant} in the control plane`);
    if (tenant.status === 'spare') throw new Refused(`tenant ${tenant.id} is a spare, made in advance and not yet a workspace: nothing to move`);
    if (tenant.db_url_sealed) throw new Refused(`tenant ${tenant.id} keeps its data in its own database (BYODB): that database is its placement, and a move has nothing to copy`);
    if (!tenant.role_name) throw new Refused(`tenant ${tenant.id} has no role of its own: a move needs one (its grants are how its writes are frozen)`);
    if (this.placedOn(tenant) === toKey) throw new Refused(`tenant ${tenant.id} is on ${toKey} already`);
    if (!isCurrent(tenant)) throw new Refused(`tenant ${tenant.id} is behind the tenant migrations (at ${tenant.migrated_to ?? 'none'}): run npm run migrate first`);
    const role = tenant.role_name;
    const schema = tenant.schema_name;

    const lock = await holdMoveLock(this.control, tenant.id, lockLabel('baton tenant:move'));
    if (!lock) {
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
      await lock.release();
    }
  }

  /** `--undo`: the move left by a run that is gone undone, nothing moved. */
  private async undoLeft(): Promise<{ code: number; summary: Record<string, unknown> }> {
    const control = await this.runnerOn(null);
    const tenant = await tenantRow(control, this.options.tenant);
    if (!tenant) throw new Refused(`no tenant ${this.options.tenant} in the control plane`);
    const lock = await holdMoveLock(this.control, tenant.id, lockLabel('baton tenant:move --undo'));
    if (!lock) {
      const error = `another run is moving tenant ${tenant.id}; it holds the tenant's move lock (stop that run: it undoes its move itself)`;
      say(error);
      return { code: EXIT_BUSY, summary: { tenant_id: tenant.id, undone: false, error } };
    }
    try {
      Object.assign(tenant, await tenantRow(control, tenant.id));
      if (!tenant.moving_to || !tenant.role_name) throw new Refused(`tenant ${tenant.id} has no move left to undo: it is on ${this.placedOn(tenant)}`);
      const left = tenant.moving_to;
      await this.undo(control, await this.runnerOn(tenant.db_server), tenant, left, undefined);
      say(`tenant ${tenant.id}: the move to ${left} left by a run that is gone is undone; it is on ${this.placedOn(tenant)}, writable`);
      return { code: 0, summary: { tenant_id: tenant.id, undone: true, from: this.placedOn(tenant), to: left } };
    } finally {
      await lock.release();
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
      per_table: sizes.filter((t) => t.rows > 0),
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
    const made = { role: false };
    let moved: { bulk: BulkCopy; caught: CatchUp; pauseMs: number };
    try {
      moved = await this.copyAndSwitch(control, source, target, tenant, from, toKey, made);
    } catch (error) {
      const interrupted = error instanceof Interrupted;
      say(`tenant ${tenant.id}: ${interrupted ? error.message : `move failed: ${errorText(error)}`}; undoing it`);
      try {
        await this.undo(control, source, tenant, toKey, made.role);
      } catch (undoError) {
        say(`tenant ${tenant.id}: undoing failed: ${errorText(undoError)}; run the command again to finish undoing it`);
        return { code: EXIT_UNDO_FAILED, summary: { ...head, moved: false, undone: false, error: errorText(error), undo_error: errorText(undoError) } };
      }
      say(`tenant ${tenant.id}: undone; it is on ${from}, writable`);
      return { code: interrupted ? EXIT_INTERRUPTED : 1, summary: { ...head, moved: false, undone: true, error: interrupted ? error.message : errorText(error) } };
    }
    const { bulk, caught, pauseMs } = moved;
    say(`tenant ${tenant.id}: switched to ${toKey}; its writes were refused for ${(pauseMs / 1000).toFixed(2)} s`);
    const dropRole = (await sameCluster(source, target, role).catch(() => true)) ? null : role;
    const { code, oldSchema } = await this.dropOld(source, tenant.id, from, schema, dropRole);
    return {
      code,
      summary: {
        ...head,
        moved: true,
        tables: bulk.tables.length,
        sequences: caught.sequences,
        rows: bulk.rows,
        rows_changed_during_copy: caught.rows,
        per_table: caught.tallies.filter((t) => t.rows > 0).map((t) => ({ table: t.table, rows: t.rows })),
        verified: true,
        pause_ms: pauseMs,
        copy_ms: bulk.copyMs,
        verify_ms: bulk.verifyMs,
        catch_up_ms: caught.ms,
        old_schema: oldSchema,
        ...(oldSchema === 'kept' ? { drop_old_sql: dropSql(schema, dropRole) } : {}),
        seconds: Number(((Date.now() - started) / 1000).toFixed(3)),
      },
    };
  }

  /** Target prepared, writes frozen, rows copied and verified, source closed, control plane switched; `made.role` says whether the target's role is this run's. */
  private async copyAndSwitch(control: QueryRunner, source: QueryRunner, target: QueryRunner, tenant: MovingTenant, from: string, toKey: string, made: { role: boolean }) {
    const [schema, role] = [tenant.schema_name, tenant.role_name as string];
    const options = (progress?: Progress) => ({ batch: this.options.batch, beforeBatch: () => this.check(), onRows: (n: number) => progress?.tick(n) });
    say(`tenant ${tenant.id}: preparing schema ${schema} on ${toKey}`);
    made.role = await prepareTarget(target, schema, role);
    this.check();
    await noteChanges(source, schema, role, await copiedTables(source, schema), await primaryKeys(source, schema), FREEZE_LOCK_WAIT_MS);
    this.check();
    const total = await rowCounts(source, schema);
    say(`tenant ${tenant.id}: copying ${total} rows (writes go on)`);
    const progress = new Progress(total, 'rows');
    const bulk = await bulkCopy(source, target, schema, role, options(progress));
    progress.finish();
    say(`tenant ${tenant.id}: ${bulk.rows} rows in ${bulk.tables.length} tables copied and verified`);
    this.check();
    say(`tenant ${tenant.id}: freezing writes on ${from}`);
    await freezeWrites(source, schema, role, FREEZE_LOCK_WAIT_MS);
    const frozenAt = Date.now();
    this.check();
    const caught = await catchUp(source, target, schema, role, bulk, options());
    say(`tenant ${tenant.id}: ${caught.rows} rows changed meanwhile copied again and verified, ${caught.sequences} sequences set, every table's count the same`);
    this.check();
    await closeSource(source, schema, role);
    const switched: unknown[] = await control.query(
      'UPDATE control.tenants SET db_server = $2, moving_to = NULL, updated_at = now() WHERE id = $1 AND moving_to = $3 RETURNING id',
      [tenant.id, this.servers.placementOf(toKey), toKey],
    );
    if (switched.length === 0) throw new Error('the control plane no longer marks the tenant as moving here: not switched');
    this.switched = true;
    return { bulk, caught, pauseMs: Date.now() - frozenAt };
  }

  /** After the grace wait (cut short by a signal, which keeps the schema), drops the old schema (and role, unless the cluster shares it). */
  private async dropOld(source: QueryRunner, tenantId: string, from: string, schema: string, dropRole: string | null) {
    let oldSchema: 'dropped' | 'kept' = 'kept';
    let code = 0;
    if (!this.options.keepOld) {
      const grace = this.graceSeconds();
      say(`tenant ${tenantId}: dropping the old schema on ${from} in ${grace} s (instances forget its old place by then)`);
      const until = Date.now() + grace * 1000;
      while (Date.now() < until && !this.signal) await new Promise((resolve) => setTimeout(resolve, Math.min(200, until - Date.now())));
      if (!this.signal) {
        try {
          await dropSchema(source, schema, dropRole);
          oldSchema = 'dropped';
          say(`tenant ${tenantId}: old schema ${schema} dropped on ${from}`);
        } catch (error) {
          say(`tenant ${tenantId}: dropping the old schema failed: ${errorText(error)}`);
          code = EXIT_OLD_KEPT;
        }
      }
    }
    if (oldSchema === 'kept') say(`tenant ${tenantId}: old schema kept on ${from} (closed to the tenant); to drop it, run there: ${dropSql(schema, dropRole)}`);
    return { code, oldSchema };
  }

  /** Undoes a move to `toKey` that did not switch (`undoMove`); a copy left on the target is an error naming it. */
  private async undo(control: QueryRunner, source: QueryRunner, tenant: MovingTenant, toKey: string, createdRole: boolean | undefined) {
    const reachable = this.servers.find(toKey) && toKey !== this.placedOn(tenant);
    const leftover = await undoMove(control, source, reachable ? () => this.runnerOn(toKey) : undefined, tenant, toKey, createdRole);
    if (leftover) {
      throw new Error(
        `the tenant is on its server again, writable, but its copy on ${toKey} could not be dropped (${errorText(leftover)}); drop it there: ${dropSql(tenant.schema_name, createdRole ? tenant.role_name : null)}`,
      );
    }
  }
}

/**
 * `npm run tenant:move` once its arguments are read (src/cli/tenant-move.ts): one hosted tenant's
 * schema from the server it is on to another of SERVICE_TENANT_DB_URLS, online (see USAGE and
 * docs/decisions.md, "Moving a tenant between servers online"). Sets the exit status.
 */
export async function moveTenant(options: Options) {
  const config = configOrExit();
  if (!config.isHosted || !config.dbUrl) {
    say('tenant:move needs SERVICE_MODE=hosted and SERVICE_DB_URL: a self-hosted instance has one local tenant');
    process.exit(78);
  }
  const toKey = options.undo ? undefined : serverKeyOf(options.to);
  const listed = config.tenantDbUrls.map(serverKeyOf);
  if (toKey && !listed.includes(toKey))
    usageError(`--to ${toKey} is not one of SERVICE_TENANT_DB_URLS (${listed.join(', ') || 'none listed'}): instances would not find the tenant there`);
  Logger.overrideLogger(new JsonLogger('warn', (line) => process.stderr.write(line + '\n')));
  const shared = postgresOptions(config.dbUrl, 6, true) as DataSourceOptions & { extra: object };
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
