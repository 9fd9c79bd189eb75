import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class SessionsAndFileLocks1732245000000 implements MigrationInterface {
  name = 'SessionsAndFileLocks1732245000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE sessions (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      name text NOT NULL,
      kind text NOT NULL,
      status text NOT NULL,
      human_id text NOT NULL,
      state text,
      last_seen ${ts} NOT NULL,
      created_at ${ts} NOT NULL,
      closed_at ${ts},
      close_reason text
    )`);
    await runner.query('CREATE INDEX sessions_project_status_ix ON sessions (project_id, status)');
    await runner.query('CREATE INDEX sessions_status_last_seen_ix ON sessions (status, last_seen)');
    await runner.query(`CREATE TABLE file_locks (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id} NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      file_path text NOT NULL,
      claimed_at ${ts} NOT NULL,
      expires_at ${ts} NOT NULL
    )`);
    // One lock per file per project (the original keyed by path alone, so two projects collided).
    await runner.query('CREATE UNIQUE INDEX file_locks_project_path_uq ON file_locks (project_id, file_path)');
    await runner.query('CREATE INDEX file_locks_session_ix ON file_locks (session_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE file_locks');
    await runner.query('DROP TABLE sessions');
  }
}
