import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class ProjectSettings1732246000000 implements MigrationInterface {
  name = 'ProjectSettings1732246000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    await runner.query(`CREATE TABLE project_settings (
      project_id ${pg ? 'uuid' : 'varchar(36)'} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      max_pinned_decisions integer NOT NULL,
      hitl_auto_answer boolean NOT NULL,
      auto_worktrees boolean NOT NULL,
      require_merge_approval boolean NOT NULL,
      code_intel_enabled boolean NOT NULL,
      execution_mode text NOT NULL,
      executor_config text NOT NULL,
      updated_at ${pg ? 'timestamptz' : 'datetime'} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE project_settings');
  }
}
