import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * The workspace's usage settings: one row (id `singleton`), written on the
 * first PATCH /settings/usage. The overage caps are monthly amounts; null
 * means no overage (usage stops at what the plan includes).
 */
export class UsageSettings1732333000000 implements MigrationInterface {
  name = 'UsageSettings1732333000000';

  async up(runner: QueryRunner): Promise<void> {
    const ts = dialectOf(runner) === 'postgres' ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE usage_settings (
      id text PRIMARY KEY NOT NULL,
      compute_overage_cap_usd integer,
      storage_overage_cap_gb integer,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE usage_settings');
  }
}
