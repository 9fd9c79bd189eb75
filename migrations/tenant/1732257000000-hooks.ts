import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class Hooks1732257000000 implements MigrationInterface {
  name = 'Hooks1732257000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    // Which Baton session an assistant's own session id was given, so Stop finds it again.
    await runner.query(`CREATE TABLE hook_sessions (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      assistant_session_id text NOT NULL,
      session_id ${id} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX hook_sessions_project_assistant_uq ON hook_sessions (project_id, assistant_session_id)');
    await runner.query('CREATE INDEX hook_sessions_assistant_ix ON hook_sessions (assistant_session_id)');
    // What the hooks did, for GET /hooks/diagnostics; a call whose project was not found has no project_id.
    await runner.query(`CREATE TABLE hook_events (
      id ${id} PRIMARY KEY NOT NULL,
      event text NOT NULL,
      outcome text NOT NULL,
      detail text NOT NULL,
      project_id ${id} REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id},
      assistant_session_id text,
      source text,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX hook_events_created_ix ON hook_events (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE hook_events');
    await runner.query('DROP TABLE hook_sessions');
  }
}
