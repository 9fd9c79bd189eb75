import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** Human questions (HITL), agent messages with their per-reader cursors, and where a project's notifications go. */
export class HitlMessagesNotifications1732270000000 implements MigrationInterface {
  name = 'HitlMessagesNotifications1732270000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE hitl_requests (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      session_id ${id} NOT NULL,
      question text NOT NULL,
      context text,
      urgency text NOT NULL,
      status text NOT NULL,
      answer text,
      answered_by text,
      assigned_to text NOT NULL,
      created_at ${ts} NOT NULL,
      answered_at ${ts}
    )`);
    await runner.query('CREATE INDEX hitl_requests_project_status_ix ON hitl_requests (project_id, status, created_at)');
    await runner.query('CREATE INDEX hitl_requests_status_ix ON hitl_requests (status, created_at)');

    // Next message number of each project: the row lock orders concurrent sends, so seq order is commit order.
    await runner.query(`CREATE TABLE message_sequences (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      last_seq bigint NOT NULL
    )`);
    await runner.query(`CREATE TABLE messages (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      seq bigint NOT NULL,
      sender text,
      recipient_kind text NOT NULL,
      recipient text,
      body text NOT NULL,
      idempotency_key text,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX messages_project_seq_uq ON messages (project_id, seq)');
    await runner.query('CREATE INDEX messages_recipient_ix ON messages (project_id, recipient_kind, recipient, seq)');
    await runner.query('CREATE UNIQUE INDEX messages_idempotency_uq ON messages (project_id, idempotency_key)');
    await runner.query(`CREATE TABLE message_cursors (
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      reader_kind text NOT NULL,
      reader text NOT NULL,
      acked_seq bigint NOT NULL,
      start_seq bigint NOT NULL,
      updated_at ${ts} NOT NULL,
      PRIMARY KEY (project_id, reader_kind, reader)
    )`);

    await runner.query(`CREATE TABLE notify_settings (
      project_id ${id} PRIMARY KEY NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      notify_url text,
      notify_email text,
      updated_at ${ts} NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['notify_settings', 'message_cursors', 'messages', 'message_sequences', 'hitl_requests']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
