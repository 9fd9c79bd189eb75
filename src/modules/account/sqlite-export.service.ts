import { Inject, Injectable } from '@nestjs/common';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { applyTenantMigrations } from '../../database/sqlite-tenant-file';
import { Principal } from '../../common/auth/principal';
import { RequestError } from '../../common/errors/request-error';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { backupSqlite } from './sqlite-backup.util';

/** Full SQLite exports per workspace: each copies the whole workspace, so a few an hour. */
export const SQLITE_EXPORT_LIMIT = { hits: 5, windowMs: 3_600_000 };

/** Rows written to the SQLite file in one transaction before the event loop gets a turn. */
const INSERT_BATCH = 500;

type Row = Record<string, unknown>;

interface PgColumn {
  table_name: string;
  column_name: string;
  data_type: string;
}

/**
 * GET /export/sqlite: the workspace's own data as one SQLite file, the same
 * tables as a self-hosted Baton's (the tenant migration set), with the same
 * rows. Self-hosted on SQLite it is SQLite's online backup of the file, taken
 * while writes go on, less the instance's own tables (waitlist, feedback, blog,
 * admin audit); on Postgres the tenant's schema is read in one read-only
 * REPEATABLE READ transaction (one moment) and written into a fresh file.
 */
@Injectable()
export class SqliteExportService {
  private tenantTables?: Promise<string[]>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly limiter: WindowLimiter,
  ) {}

  /** Writes the export to a temporary folder, hands it to `send`, then removes it. */
  async export(principal: Principal, send: (path: string, name: string) => Promise<void>): Promise<void> {
    if (principal.kind === 'token') throw RequestError.forbidden("the full SQLite export needs the workspace's owner signed in; an API token cannot take it");
    if (principal.kind === 'session' && principal.role !== 'owner') throw RequestError.forbidden('only an owner of the workspace may take the full SQLite export');
    const key = createHash('sha256').update(principal.tenantId).digest('hex').slice(0, 32);
    const wait = await this.limiter.hit('sqlite-export', key, SQLITE_EXPORT_LIMIT.hits, SQLITE_EXPORT_LIMIT.windowMs);
    if (wait) throw RequestError.rateLimited(`too many SQLite exports of this workspace; retry in ${wait} s`, wait);
    const folder = await mkdtemp(join(tmpdir(), 'baton-export-'));
    const name = `baton-workspace-${new Date().toISOString().replace(/[:.]/g, '-')}.sqlite`;
    const path = join(folder, name);
    try {
      if (this.db.dialect === 'sqlite') await backupSqlite(this.config.sqlitePath, path, ['baton_migrations', ...(await this.tables())]);
      else await this.copyFromPostgres(path);
      await send(path, name);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }

  /** The tables the tenant migration set makes (found once, by applying it to an in-memory database). */
  private tables(): Promise<string[]> {
    this.tenantTables ??= (async () => {
      const scratch = new Database(':memory:');
      try {
        await applyTenantMigrations(scratch);
        return userTables(scratch).filter((t) => t !== 'baton_migrations');
      } finally {
        scratch.close();
      }
    })();
    return this.tenantTables;
  }

  private async copyFromPostgres(path: string): Promise<void> {
    const file = new Database(path);
    try {
      await applyTenantMigrations(file);
      file.pragma('foreign_keys = OFF');
      const tables = userTables(file).filter((t) => t !== 'baton_migrations');
      // Triggers that record history as rows change are off while copying (the history is copied
      // as rows of its own); those keeping a full-text index (a virtual table) stay on, so the
      // index is built as the rows arrive, as SQLite keeps it for a self-hosted Baton.
      const virtual = file.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'").pluck().all() as string[];
      const triggers = (file.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all() as { name: string; sql: string }[]).filter(
        (t) => !virtual.some((v) => new RegExp(`\\b${v}\\b`).test(t.sql)),
      );
      for (const trigger of triggers) file.exec(`DROP TRIGGER "${trigger.name}"`);
      await this.db.transaction(async (m) => {
        await m.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
        const columns: PgColumn[] = await m.query(
          'SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1)',
          [tables],
        );
        for (const table of tables)
          await copyTable(
            m,
            file,
            table,
            columns.filter((c) => c.table_name === table),
          );
      });
      for (const trigger of triggers) file.exec(trigger.sql);
    } finally {
      file.close();
    }
  }
}

function userTables(file: Database.Database): string[] {
  return file.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").pluck().all() as string[];
}

async function copyTable(m: EntityManager, file: Database.Database, table: string, pgColumns: PgColumn[]): Promise<void> {
  const sqliteColumns = (file.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
  const types = new Map(pgColumns.map((c) => [c.column_name, c.data_type]));
  const names = sqliteColumns.filter((c) => types.has(c));
  if (names.length === 0) return;
  const quoted = names.map((n) => `"${n.replace(/"/g, '""')}"`);
  const rows: Row[] = await m.query(`SELECT ${quoted.join(', ')} FROM "${table}"`);
  const insert = file.prepare(`INSERT INTO "${table}" (${quoted.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`);
  const writeBatch = file.transaction((batch: Row[]) => {
    for (const row of batch) insert.run(names.map((n) => sqliteValue(row[n], types.get(n) as string)));
  });
  for (let at = 0; at < rows.length; at += INSERT_BATCH) {
    writeBatch(rows.slice(at, at + INSERT_BATCH));
    await yieldToLoop();
  }
}

/** A Postgres value as a self-hosted Baton stores it in SQLite (TypeORM's SQLite forms). */
export function sqliteValue(value: unknown, pgType: string): unknown {
  if (value === null || value === undefined) return null;
  if (pgType === 'json' || pgType === 'jsonb') return JSON.stringify(value);
  if (value instanceof Date) return value.toISOString().replace('T', ' ').replace('Z', '');
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Buffer.isBuffer(value)) return value;
  if (Array.isArray(value) || typeof value === 'object') return JSON.stringify(value);
  if (typeof value === 'bigint') return value.toString();
  return value;
}
