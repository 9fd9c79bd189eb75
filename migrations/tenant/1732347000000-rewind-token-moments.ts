import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * A rewind token shows the project at one moment, chosen when it is minted (`pinned_at`).
 * Tokens minted before this column existed keep it null and open any moment until they expire.
 */
export class RewindTokenMoments1732347000000 implements MigrationInterface {
  name = 'RewindTokenMoments1732347000000';

  async up(runner: QueryRunner): Promise<void> {
    const ts = dialectOf(runner) === 'postgres' ? 'timestamptz' : 'datetime';
    await runner.query(`ALTER TABLE project_tokens ADD COLUMN pinned_at ${ts}`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE project_tokens DROP COLUMN pinned_at');
  }
}
