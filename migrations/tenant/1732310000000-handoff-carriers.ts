import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * A handoff may carry its author's work (in-progress sprint items and tasks, file locks) to the
 * session that accepts it: `carrier_session_id` is the session holding that work meanwhile.
 */
export class HandoffCarriers1732310000000 implements MigrationInterface {
  name = 'HandoffCarriers1732310000000';

  async up(runner: QueryRunner): Promise<void> {
    const id = dialectOf(runner) === 'postgres' ? 'uuid' : 'varchar(36)';
    await runner.query(`ALTER TABLE handoffs ADD COLUMN carrier_session_id ${id} REFERENCES sessions(id) ON DELETE SET NULL`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE handoffs DROP COLUMN carrier_session_id');
  }
}
