import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** Named external connections of the workspace (POST/DELETE /config/connections); a secret only sealed. */
export class WorkspaceConnections1732333100000 implements MigrationInterface {
  name = 'WorkspaceConnections1732333100000';

  async up(runner: QueryRunner): Promise<void> {
    const ts = dialectOf(runner) === 'postgres' ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE workspace_connections (
      name text PRIMARY KEY NOT NULL,
      kind text NOT NULL,
      url text,
      secret_sealed text,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE workspace_connections');
  }
}
