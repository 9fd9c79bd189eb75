import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * A project's code-host repository and whose access it uses: hosted, a signed-in person's
 * connection (account and login; the token stays in control.codehost_connections); self-hosted, a
 * personal access token sealed here.
 */
export class ProjectCodehost1732331900000 implements MigrationInterface {
  name = 'ProjectCodehost1732331900000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const at = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE project_codehost (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      repo_owner text NOT NULL,
      repo_name text NOT NULL,
      account_login text NOT NULL,
      account_id ${id},
      token_sealed text,
      connected_at ${at} NOT NULL,
      updated_at ${at} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE project_codehost');
  }
}
