import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class Projects1732240000000 implements MigrationInterface {
  name = 'Projects1732240000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    await runner.query(`CREATE TABLE projects (
      id ${pg ? 'uuid' : 'varchar(36)'} PRIMARY KEY NOT NULL,
      name text NOT NULL,
      name_key text NOT NULL,
      created_at ${pg ? 'timestamptz' : 'datetime'} NOT NULL,
      updated_at ${pg ? 'timestamptz' : 'datetime'} NOT NULL
    )`);
    // Names are unique without regard to case: "Baton" and "baton" are the same project to a person.
    await runner.query('CREATE UNIQUE INDEX projects_name_key_uq ON projects (name_key)');
    await runner.query('CREATE INDEX projects_created_at_ix ON projects (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE projects');
  }
}
