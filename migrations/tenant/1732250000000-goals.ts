import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class Goals1732250000000 implements MigrationInterface {
  name = 'Goals1732250000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE goals (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      content text NOT NULL,
      north_star text NOT NULL,
      north_star_by text,
      sprint text NOT NULL,
      version integer NOT NULL,
      mode text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    // A project has one goal; its earlier versions live in goal_history.
    await runner.query('CREATE UNIQUE INDEX goals_project_uq ON goals (project_id)');
    await runner.query(`CREATE TABLE goal_history (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      version integer NOT NULL,
      content text NOT NULL,
      north_star text NOT NULL,
      sprint text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX goal_history_project_version_uq ON goal_history (project_id, version)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE goal_history');
    await runner.query('DROP TABLE goals');
  }
}
