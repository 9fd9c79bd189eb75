import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** Tenant-wide records: notes and decisions at the head of every context block, workspace sprint items, settings. */
export class WorkspaceLayer1732250300000 implements MigrationInterface {
  name = 'WorkspaceLayer1732250300000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE workspace_notes (
      id ${id} PRIMARY KEY NOT NULL,
      title text NOT NULL,
      body text NOT NULL,
      tags text NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX workspace_notes_created_ix ON workspace_notes (created_at)');
    await runner.query(`CREATE TABLE workspace_decisions (
      id ${id} PRIMARY KEY NOT NULL,
      title text NOT NULL,
      title_key text NOT NULL,
      body text NOT NULL,
      status text NOT NULL,
      supersedes_id ${id} REFERENCES workspace_decisions(id) ON DELETE SET NULL,
      superseded_by_id ${id} REFERENCES workspace_decisions(id) ON DELETE SET NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX workspace_decisions_status_ix ON workspace_decisions (status, created_at)');
    await runner.query('CREATE INDEX workspace_decisions_title_key_ix ON workspace_decisions (title_key)');
    await runner.query(`CREATE TABLE workspace_sprint_items (
      id ${id} PRIMARY KEY NOT NULL,
      title text NOT NULL,
      status text NOT NULL,
      item_group text,
      notes text,
      human_id text,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL,
      completed_at ${ts}
    )`);
    await runner.query('CREATE INDEX workspace_sprint_items_status_ix ON workspace_sprint_items (status)');
    await runner.query(`CREATE TABLE workspace_settings (
      id text PRIMARY KEY NOT NULL,
      name text,
      timezone text NOT NULL,
      context_notes_limit integer NOT NULL,
      context_decisions_limit integer NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['workspace_settings', 'workspace_sprint_items', 'workspace_decisions', 'workspace_notes']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
