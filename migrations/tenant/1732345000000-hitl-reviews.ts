import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** A change that waits for a person's approval through a HITL request (an instruction-file edit, a worktree merge). */
export class HitlReviews1732345000000 implements MigrationInterface {
  name = 'HitlReviews1732345000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE hitl_reviews (
      id ${id} PRIMARY KEY NOT NULL,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      hitl_request_id ${id} NOT NULL REFERENCES hitl_requests(id) ON DELETE CASCADE,
      kind text NOT NULL,
      subject text NOT NULL,
      payload text NOT NULL,
      status text NOT NULL,
      outcome text,
      created_at ${ts} NOT NULL,
      decided_at ${ts}
    )`);
    await runner.query('CREATE UNIQUE INDEX hitl_reviews_request_uq ON hitl_reviews (hitl_request_id)');
    await runner.query('CREATE INDEX hitl_reviews_project_kind_ix ON hitl_reviews (project_id, kind, status)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE hitl_reviews');
  }
}
