import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** What the executor settings write: the test command a run carries, a worktree's sprint item and its merge approval. */
export class ExecutorSettings1732345100000 implements MigrationInterface {
  name = 'ExecutorSettings1732345100000';

  async up(runner: QueryRunner): Promise<void> {
    const id = dialectOf(runner) === 'postgres' ? 'uuid' : 'varchar(36)';
    await runner.query('ALTER TABLE executor_runs ADD COLUMN test_command text');
    await runner.query(`ALTER TABLE worktrees ADD COLUMN sprint_item_id ${id} REFERENCES sprint_items(id) ON DELETE SET NULL`);
    await runner.query('ALTER TABLE worktrees ADD COLUMN merge_status text');
    await runner.query('CREATE UNIQUE INDEX worktrees_sprint_item_uq ON worktrees (sprint_item_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX worktrees_sprint_item_uq');
    await runner.query('ALTER TABLE worktrees DROP COLUMN merge_status');
    await runner.query('ALTER TABLE worktrees DROP COLUMN sprint_item_id');
    await runner.query('ALTER TABLE executor_runs DROP COLUMN test_command');
  }
}
