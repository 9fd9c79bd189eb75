import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * The workspace's wishes for its tunnel connector: one row (id `singleton`), written on the first
 * change. Filesystem roots, plugin overrides and custom plugins are JSON text; the connector
 * applies them only within what the person allowed on their own machine.
 */
export class TunnelSettings1732340000000 implements MigrationInterface {
  name = 'TunnelSettings1732340000000';

  async up(runner: QueryRunner): Promise<void> {
    const ts = dialectOf(runner) === 'postgres' ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE tunnel_settings (
      id text PRIMARY KEY NOT NULL,
      filesystem_roots text NOT NULL,
      plugin_overrides text NOT NULL,
      custom_plugins text NOT NULL,
      active_repo text,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE tunnel_settings');
  }
}
