import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * What other agents and the agent interfaces leave in a workspace: tasks sent
 * by external agents over A2A (a project's inbox), workspace proposals (the
 * human-only store of cross-project ideas, with the sprint item a promotion
 * created) and document peeks (document-structure views that saved nothing).
 */
export class AgentInterfaces1732341000000 implements MigrationInterface {
  name = 'AgentInterfaces1732341000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE a2a_tasks (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      context_id text NOT NULL,
      message_id text NOT NULL,
      state text NOT NULL,
      title text NOT NULL,
      message text NOT NULL,
      status_note text,
      sender text,
      updated_by text,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX a2a_tasks_project_state ON a2a_tasks (project_id, state, created_at)');
    // A sending agent that retries a message gets the task the first attempt made, not a second one.
    await runner.query('CREATE UNIQUE INDEX a2a_tasks_message ON a2a_tasks (project_id, message_id)');
    await runner.query(`CREATE TABLE workspace_proposals (
      id ${id} PRIMARY KEY NOT NULL,
      title text NOT NULL,
      body text NOT NULL,
      status text NOT NULL,
      human_id text,
      sprint_item_id ${id} REFERENCES sprint_items(id) ON DELETE SET NULL,
      promoted_project_id ${id} REFERENCES projects(id) ON DELETE SET NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL,
      promoted_at ${ts}
    )`);
    await runner.query('CREATE INDEX workspace_proposals_status ON workspace_proposals (status, created_at)');
    await runner.query(`CREATE TABLE document_peeks (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      viewer text NOT NULL,
      via text NOT NULL,
      document_count integer NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX document_peeks_created ON document_peeks (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE document_peeks');
    await runner.query('DROP TABLE workspace_proposals');
    await runner.query('DROP TABLE a2a_tasks');
  }
}
