import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

export class NotesAndDecisions1732250200000 implements MigrationInterface {
  name = 'NotesAndDecisions1732250200000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    const project = `project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE`;
    const session = `session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL`;
    await runner.query(`CREATE TABLE project_notes (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      title text NOT NULL,
      body text NOT NULL,
      tags text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX project_notes_project_created_ix ON project_notes (project_id, created_at)');
    await runner.query(`CREATE TABLE insights (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      title text NOT NULL,
      body text NOT NULL,
      horizon text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX insights_project_created_ix ON insights (project_id, created_at)');
    await runner.query(`CREATE TABLE decision_log (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      title text NOT NULL,
      body text NOT NULL,
      human_id text,
      ${session},
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX decision_log_project_created_ix ON decision_log (project_id, created_at)');
    await runner.query(`CREATE TABLE devlog (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      entry text NOT NULL,
      human_id text,
      ${session},
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX devlog_project_created_ix ON devlog (project_id, created_at)');
    await runner.query(`CREATE TABLE pinned_decisions (
      id ${id} PRIMARY KEY NOT NULL,
      ${project},
      title text NOT NULL,
      body text NOT NULL,
      status text NOT NULL,
      supersedes_id ${id} REFERENCES pinned_decisions(id) ON DELETE SET NULL,
      superseded_by_id ${id} REFERENCES pinned_decisions(id) ON DELETE SET NULL,
      human_id text,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL,
      archived_at ${ts}
    )`);
    await runner.query('CREATE INDEX pinned_decisions_project_status_ix ON pinned_decisions (project_id, status, created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['pinned_decisions', 'devlog', 'decision_log', 'insights', 'project_notes']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
