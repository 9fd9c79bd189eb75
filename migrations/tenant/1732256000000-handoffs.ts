import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class Handoffs1732256000000 implements MigrationInterface {
  name = 'Handoffs1732256000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE handoffs (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id},
      mode text NOT NULL,
      token text NOT NULL,
      file_name text NOT NULL,
      content text NOT NULL,
      body_sha256 text NOT NULL,
      board_sha256 text NOT NULL,
      tools_sha256 text NOT NULL,
      bytes integer NOT NULL,
      created_at ${ts} NOT NULL,
      expires_at ${ts} NOT NULL,
      consumed_at ${ts},
      consumed_by_session_id ${id}
    )`);
    await runner.query('CREATE UNIQUE INDEX handoffs_token_uq ON handoffs (token)');
    await runner.query('CREATE INDEX handoffs_project_created_ix ON handoffs (project_id, created_at)');
    await runner.query(`CREATE TABLE handoff_corrections (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id},
      summary text NOT NULL,
      content text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX handoff_corrections_project_created_ix ON handoff_corrections (project_id, created_at)');
    // One queued goal per project: queueing again replaces it.
    await runner.query(`CREATE TABLE queued_sessions (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      goal text NOT NULL,
      queued_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE queued_sessions');
    await runner.query('DROP TABLE handoff_corrections');
    await runner.query('DROP TABLE handoffs');
  }
}
