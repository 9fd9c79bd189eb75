import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class SessionNotes1732255000000 implements MigrationInterface {
  name = 'SessionNotes1732255000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE session_notes (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      body text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    // A session's scratch pad is read newest first; a handoff reads a project's notes since a time.
    await runner.query('CREATE INDEX session_notes_session_created_ix ON session_notes (session_id, created_at)');
    await runner.query('CREATE INDEX session_notes_project_created_ix ON session_notes (project_id, created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE session_notes');
  }
}
