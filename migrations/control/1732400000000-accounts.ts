import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People who sign in: an account per verified e-mail address, the provider
 * identities that lead to it, its memberships of workspaces (tenants) with a
 * role and a code-host access cap, and its web sessions. A web session is
 * found by the SHA-256 of the secret its cookie carries; the secret itself is
 * never stored.
 */
export class Accounts1732400000000 implements MigrationInterface {
  name = 'Accounts1732400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE accounts (
      id uuid PRIMARY KEY,
      email text NOT NULL UNIQUE,
      name text,
      email_verified_at timestamptz,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE TABLE account_identities (
      provider text NOT NULL,
      subject text NOT NULL,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      email text,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz NOT NULL,
      PRIMARY KEY (provider, subject)
    )`);
    await runner.query('CREATE INDEX account_identities_account_ix ON account_identities (account_id)');
    await runner.query(`CREATE TABLE memberships (
      id uuid PRIMARY KEY,
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      account_id uuid REFERENCES accounts(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
      codehost_access text NOT NULL DEFAULT 'read' CHECK (codehost_access IN ('none', 'read', 'write')),
      status text NOT NULL CHECK (status IN ('invited', 'active')),
      created_at timestamptz NOT NULL,
      joined_at timestamptz,
      UNIQUE (tenant_id, email)
    )`);
    await runner.query('CREATE INDEX memberships_account_ix ON memberships (account_id)');
    await runner.query(`CREATE TABLE web_sessions (
      id uuid PRIMARY KEY,
      secret_hash char(64) NOT NULL UNIQUE,
      account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      tenant_id uuid REFERENCES tenants(id) ON DELETE SET NULL,
      provider text NOT NULL,
      user_agent text,
      created_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`);
    await runner.query('CREATE INDEX web_sessions_account_ix ON web_sessions (account_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE web_sessions; DROP TABLE memberships; DROP TABLE account_identities; DROP TABLE accounts');
  }
}
