import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * What belongs to the instance rather than to a workspace: the waitlist, the
 * feedback box, blog posts, changelog entries and the admin audit trail.
 * Hosted they live in the control schema; self-hosted beside the local data
 * (the SQLite file, or the local schema on Postgres).
 */
export class SiteContent1732500000000 implements MigrationInterface {
  name = 'SiteContent1732500000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const at = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE site_waitlist (id ${id} PRIMARY KEY, email varchar(254) NOT NULL UNIQUE, note text NOT NULL, created_at ${at} NOT NULL)`);
    await runner.query(`CREATE TABLE site_feedback (id ${id} PRIMARY KEY, message text NOT NULL, email varchar(254), page varchar(500), created_at ${at} NOT NULL)`);
    await runner.query(
      `CREATE TABLE site_blog_posts (id ${id} PRIMARY KEY, slug varchar(100) NOT NULL UNIQUE, title varchar(200) NOT NULL, body text NOT NULL, published_at ${at}, created_at ${at} NOT NULL, updated_at ${at} NOT NULL)`,
    );
    await runner.query(
      `CREATE TABLE site_changelog_entries (id ${id} PRIMARY KEY, title varchar(200) NOT NULL, body text NOT NULL, published_at ${at}, created_at ${at} NOT NULL, updated_at ${at} NOT NULL)`,
    );
    await runner.query(`CREATE TABLE admin_audit (id ${id} PRIMARY KEY, actor varchar(254) NOT NULL, action varchar(100) NOT NULL, target varchar(300), at ${at} NOT NULL)`);
    await runner.query('CREATE INDEX admin_audit_at_ix ON admin_audit (at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['admin_audit', 'site_changelog_entries', 'site_blog_posts', 'site_feedback', 'site_waitlist']) await runner.query(`DROP TABLE ${table}`);
  }
}
