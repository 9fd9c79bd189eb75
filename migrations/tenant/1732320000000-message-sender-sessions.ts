import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** The session that sent a message, as Baton checked it (receivers reply to it; a broadcast skips it). */
export class MessageSenderSessions1732320000000 implements MigrationInterface {
  name = 'MessageSenderSessions1732320000000';

  async up(runner: QueryRunner): Promise<void> {
    const id = dialectOf(runner) === 'postgres' ? 'uuid' : 'varchar(36)';
    await runner.query(`ALTER TABLE messages ADD COLUMN sender_session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE messages DROP COLUMN sender_session_id');
  }
}
