import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Code-host connections (spec §5 flow 2): a Baton account's access token for one code-host
 * account, sealed at rest. A login is unique per Baton account regardless of case, as code hosts
 * treat logins; reconnecting replaces the token. Deleting the account deletes its connections.
 */
export class CodehostConnections1732410000000 implements MigrationInterface {
  name = 'CodehostConnections1732410000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE codehost_connections (
      id uuid PRIMARY KEY,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      account_login text NOT NULL,
      scopes text NOT NULL,
      token_sealed text NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX codehost_connections_account_login_uq ON codehost_connections (account_id, lower(account_login))');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE codehost_connections');
  }
}
