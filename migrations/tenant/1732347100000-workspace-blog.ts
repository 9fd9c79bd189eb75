import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** The workspace's own blog (GET, POST /workspace/blog): posts its members read, owners and admins write. */
export class WorkspaceBlog1732347100000 implements MigrationInterface {
  name = 'WorkspaceBlog1732347100000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE workspace_blog_posts (
      id ${id} PRIMARY KEY NOT NULL,
      title text NOT NULL,
      body text NOT NULL,
      author text,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX workspace_blog_posts_created_ix ON workspace_blog_posts (created_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE workspace_blog_posts');
  }
}
