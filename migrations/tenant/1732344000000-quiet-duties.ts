import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * What makes three quiet duties real: the verifications recorded on sprint items (strict and
 * advisory claim verification), the notices a session is owed when it loses a file lock or a
 * claim, and the mark of a handoff Baton wrote itself when a session closed without one.
 */
export class QuietDuties1732344000000 implements MigrationInterface {
  name = 'QuietDuties1732344000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE sprint_item_verifications (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      item_id ${id} NOT NULL REFERENCES sprint_items(id) ON DELETE CASCADE,
      session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL,
      session_name text NOT NULL,
      passed boolean NOT NULL,
      note text,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX sprint_item_verifications_item_ix ON sprint_item_verifications (item_id, created_at)');
    await runner.query(`CREATE TABLE session_notices (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      kind text NOT NULL,
      file_path text,
      item_id ${id},
      item_ref text,
      taken_by_session_id ${id},
      taken_by_session_name text,
      occurred_at ${ts} NOT NULL,
      delivered_at ${ts}
    )`);
    await runner.query('CREATE INDEX session_notices_session_ix ON session_notices (session_id, delivered_at)');
    await runner.query(`ALTER TABLE handoffs ADD COLUMN automatic boolean NOT NULL DEFAULT ${pg ? 'false' : '0'}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE handoffs DROP COLUMN automatic');
    await runner.query('DROP TABLE session_notices');
    await runner.query('DROP TABLE sprint_item_verifications');
  }
}
