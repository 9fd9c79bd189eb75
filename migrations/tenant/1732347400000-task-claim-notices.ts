import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** A session is told when it loses a claimed task too: the notice names the task. */
export class TaskClaimNotices1732347400000 implements MigrationInterface {
  name = 'TaskClaimNotices1732347400000';

  async up(runner: QueryRunner): Promise<void> {
    const id = dialectOf(runner) === 'postgres' ? 'uuid' : 'varchar(36)';
    await runner.query(`ALTER TABLE session_notices ADD COLUMN task_id ${id}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE session_notices DROP COLUMN task_id');
  }
}
