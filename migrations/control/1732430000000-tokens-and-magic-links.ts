import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API tokens learn who made them, when they were last used, when they expire
 * and what they may do (`full` or `read`); magic sign-in links get their table.
 * A link keeps only the SHA-256 of its token, like an API token.
 */
export class TokensAndMagicLinks1732430000000 implements MigrationInterface {
  name = 'TokensAndMagicLinks1732430000000';

  async up(runner: QueryRunner): Promise<void> {
    // created_by may be there already: the invites migration adds it too (IF NOT EXISTS on both sides).
    await runner.query(`ALTER TABLE api_tokens
      ADD COLUMN IF NOT EXISTS created_by uuid,
      ADD COLUMN last_used_at timestamptz,
      ADD COLUMN expires_at timestamptz,
      ADD COLUMN scope text NOT NULL DEFAULT 'full' CHECK (scope IN ('full', 'read'))`);
    await runner.query(`CREATE TABLE magic_links (
      id uuid PRIMARY KEY,
      token_hash char(64) NOT NULL UNIQUE,
      email text NOT NULL,
      next text,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      consumed_at timestamptz
    )`);
    await runner.query('CREATE INDEX magic_links_expires_ix ON magic_links (expires_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE magic_links');
    await runner.query('ALTER TABLE api_tokens DROP COLUMN scope, DROP COLUMN expires_at, DROP COLUMN last_used_at');
  }
}
