import { MigrationInterface, QueryRunner } from 'typeorm';

/** Control plane of hosted mode. Runs with search_path set to the control schema. */
export class ControlPlane1732240000000 implements MigrationInterface {
  name = 'ControlPlane1732240000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE tenants (
      id uuid PRIMARY KEY,
      name text NOT NULL,
      schema_name text NOT NULL UNIQUE,
      role_name text,
      db_url_sealed text,
      migrated_to text,
      status text NOT NULL DEFAULT 'active',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    )`);
    await runner.query(`CREATE TABLE api_tokens (
      id uuid PRIMARY KEY,
      tenant_id uuid NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
      name text NOT NULL,
      token_hash char(64) NOT NULL UNIQUE,
      token_prefix text NOT NULL,
      created_at timestamptz NOT NULL,
      revoked_at timestamptz
    )`);
    await runner.query('CREATE INDEX api_tokens_tenant_ix ON api_tokens (tenant_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE api_tokens; DROP TABLE tenants');
  }
}
