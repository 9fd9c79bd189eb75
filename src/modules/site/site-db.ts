import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CONTROL_SCHEMA, LOCAL_SCHEMA } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';

export type SiteTable = 'site_waitlist' | 'site_feedback' | 'site_blog_posts' | 'site_changelog_entries' | 'admin_audit';

/**
 * The instance's own tables (migrations/site) on the shared database: in the
 * control schema hosted, beside the local data self-hosted. Statements are
 * written with `?` placeholders and `{table}` names, the same text on both
 * drivers.
 */
@Injectable()
export class SiteDb {
  private readonly prefix: string;
  readonly postgres: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
  ) {
    this.postgres = config.databaseType === 'postgres';
    this.prefix = this.postgres ? `${config.isHosted ? CONTROL_SCHEMA : LOCAL_SCHEMA}.` : '';
  }

  /** Runs `sql`, where `{site_waitlist}` names a table and `?` a parameter; answers the rows. */
  async query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    let n = 0;
    const text = sql.replace(/\{(\w+)\}/g, (_m, table: SiteTable) => this.prefix + table).replace(/\?/g, () => (this.postgres ? `$${++n}` : '?'));
    const values = params.map((v) => (v instanceof Date && !this.postgres ? v.toISOString() : v));
    const result: unknown = await this.source.query(text, values);
    // TypeORM answers an UPDATE or DELETE on Postgres as [rows, count]; its RETURNING rows are the first.
    return this.postgres && /^\s*(UPDATE|DELETE)\b/i.test(text) ? (result as [T[], number])[0] : (result as T[]);
  }
}

/** A stored time as an ISO string (SQLite keeps the ISO text it was given; Postgres answers a Date). */
export function isoTime(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
