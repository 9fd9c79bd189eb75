import { hash } from 'node:crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** The placeholder Baton stores in place of a handoff's token (written out here: a migration never changes). */
const PLACEHOLDER = 'ho_****************';

/**
 * Handoff tokens are kept as their SHA-256, like API tokens: a read of the
 * database (a backup, a BYODB owner's console) no longer yields tokens that
 * start sessions. The column is renamed in place, so it keeps its NOT NULL on
 * both dialects without rebuilding the SQLite table, and each row's token is
 * replaced by its hash, in the column and in the stored content. Hashes are
 * computed here rather than in SQL because SQLite has no SHA-256.
 */
export class HandoffTokenHashes1732300000000 implements MigrationInterface {
  name = 'HandoffTokenHashes1732300000000';

  async up(runner: QueryRunner): Promise<void> {
    const p = placeholders(runner);
    await runner.query('DROP INDEX handoffs_token_uq');
    await runner.query('ALTER TABLE handoffs RENAME COLUMN token TO token_sha256');
    const rows: { id: string; token_sha256: string; content: string }[] = await runner.query('SELECT id, token_sha256, content FROM handoffs');
    for (const row of rows) {
      const token = row.token_sha256;
      await runner.query(`UPDATE handoffs SET token_sha256 = ${p[0]}, content = ${p[1]} WHERE id = ${p[2]}`, [
        hash('sha256', token, 'hex'),
        row.content.replaceAll(token, PLACEHOLDER),
        row.id,
      ]);
    }
    await runner.query('CREATE UNIQUE INDEX handoffs_token_sha256_uq ON handoffs (token_sha256)');
  }

  /** Tokens cannot be recovered from their hashes: handoffs generated before the rollback stay unusable by token. */
  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX handoffs_token_sha256_uq');
    await runner.query('ALTER TABLE handoffs RENAME COLUMN token_sha256 TO token');
    await runner.query('CREATE UNIQUE INDEX handoffs_token_uq ON handoffs (token)');
  }
}

function placeholders(runner: QueryRunner): string[] {
  return dialectOf(runner) === 'postgres' ? ['$1', '$2', '$3'] : ['?', '?', '?'];
}
