import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * The workspace's default notification targets (GET/PATCH /settings/notifications): one row,
 * id `singleton`, used for a project whose own settings leave a channel unset.
 */
export class WorkspaceNotifySettings1732333000000 implements MigrationInterface {
  name = 'WorkspaceNotifySettings1732333000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    await runner.query(`CREATE TABLE workspace_notify_settings (
      id text PRIMARY KEY NOT NULL,
      notify_url text,
      notify_email text,
      updated_at ${pg ? 'timestamptz' : 'datetime'} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE workspace_notify_settings');
  }
}
