import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * MCP tasks (task-augmented calls of the waiting tools): kept in the tenant's storage so that any
 * instance serves tasks/get, tasks/result and tasks/cancel, and a client that reconnects finds them.
 */
export class McpTasks1732343000000 implements MigrationInterface {
  name = 'McpTasks1732343000000';

  async up(runner: QueryRunner): Promise<void> {
    const postgres = dialectOf(runner) === 'postgres';
    const id = postgres ? 'uuid' : 'varchar(36)';
    const ts = postgres ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE mcp_tasks (
      id ${id} PRIMARY KEY NOT NULL,
      tool text NOT NULL,
      arguments text NOT NULL,
      status text NOT NULL,
      status_message text,
      result text,
      wait_until ${ts} NOT NULL,
      ttl_ms integer NOT NULL,
      poll_interval_ms integer NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL,
      expires_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX mcp_tasks_created ON mcp_tasks (created_at, id)');
    await runner.query('CREATE INDEX mcp_tasks_expires ON mcp_tasks (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE mcp_tasks');
  }
}
