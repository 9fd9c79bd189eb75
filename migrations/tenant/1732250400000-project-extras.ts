import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** Agent instructions, icon, organization status and parent of a project; its editable markdown files. */
export class ProjectExtras1732250400000 implements MigrationInterface {
  name = 'ProjectExtras1732250400000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query('ALTER TABLE projects ADD COLUMN agent_instructions text');
    await runner.query('ALTER TABLE projects ADD COLUMN icon text');
    await runner.query(`ALTER TABLE projects ADD COLUMN organization_status text NOT NULL DEFAULT 'active'`);
    // Deleting a parent leaves its subprojects as top-level projects.
    await runner.query(`ALTER TABLE projects ADD COLUMN parent_id ${id} REFERENCES projects(id) ON DELETE SET NULL`);
    await runner.query('CREATE INDEX projects_parent_ix ON projects (parent_id)');
    await runner.query(`CREATE TABLE project_files (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      filename text NOT NULL,
      filename_key text NOT NULL,
      content text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    // CLAUDE.md and claude.md are one file, as on the file systems most people use.
    await runner.query('CREATE UNIQUE INDEX project_files_project_name_uq ON project_files (project_id, filename_key)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE project_files');
    await runner.query('DROP INDEX projects_parent_ix');
    for (const column of ['parent_id', 'organization_status', 'icon', 'agent_instructions']) {
      await runner.query(`ALTER TABLE projects DROP COLUMN ${column}`);
    }
  }
}
