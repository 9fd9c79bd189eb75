import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/** The workspace's package-install rules (POST /pkg-guard/check): allow or deny a name, a glob or an exact release. */
export class PkgGuardRules1732341100000 implements MigrationInterface {
  name = 'PkgGuardRules1732341100000';

  async up(runner: QueryRunner): Promise<void> {
    const ts = dialectOf(runner) === 'postgres' ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE pkg_guard_rules (
      ecosystem text NOT NULL,
      pattern text NOT NULL,
      action text NOT NULL,
      reason text,
      created_at ${ts} NOT NULL,
      PRIMARY KEY (ecosystem, pattern)
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE pkg_guard_rules');
  }
}
