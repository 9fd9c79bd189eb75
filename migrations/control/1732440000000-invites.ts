import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Invitations live in `memberships` as rows with status `invited`: this adds
 * the SHA-256 of the invite link's token (the token itself is never stored),
 * its expiry, who sent it and when. Accepting consumes the token: its hash is
 * cleared as the row becomes active, so a link works once.
 *
 * `api_tokens.created_by` (the account that made a token) is what removing a
 * member revokes by. The API-token migration (1732430000000) adds it too;
 * `IF NOT EXISTS` lets either run first on a fresh control plane.
 */
export class Invites1732440000000 implements MigrationInterface {
  name = 'Invites1732440000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE memberships
      ADD COLUMN invite_token_hash char(64) UNIQUE,
      ADD COLUMN invite_expires_at timestamptz,
      ADD COLUMN invited_by uuid REFERENCES accounts(id) ON DELETE SET NULL,
      ADD COLUMN invited_at timestamptz`);
    await runner.query('ALTER TABLE api_tokens ADD COLUMN IF NOT EXISTS created_by uuid');
    await runner.query('CREATE INDEX IF NOT EXISTS api_tokens_created_by_ix ON api_tokens (created_by)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX IF EXISTS api_tokens_created_by_ix');
    await runner.query('ALTER TABLE memberships DROP COLUMN invited_at, DROP COLUMN invited_by, DROP COLUMN invite_expires_at, DROP COLUMN invite_token_hash');
  }
}
