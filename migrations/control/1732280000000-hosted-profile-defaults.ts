import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * hosted_default profile layers of a hosted deployment: operator-wide
 * defaults every tenant resolves against, with their revision history. The
 * columns are those of the tenant tables profile_layers and
 * profile_layer_revisions (where a self-hosted instance keeps its
 * hosted_default layers); the names differ, so no tenant table name appears
 * in the control schema.
 */
export class HostedProfileDefaults1732280000000 implements MigrationInterface {
  name = 'HostedProfileDefaults1732280000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE hosted_profile_layers (
      id uuid PRIMARY KEY,
      scope_type text NOT NULL,
      scope_id text NOT NULL,
      project_id uuid,
      status text,
      fields text NOT NULL,
      reset_fields text NOT NULL,
      provenance text NOT NULL,
      revision integer NOT NULL,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      CHECK (scope_type = 'hosted_default' AND project_id IS NULL)
    )`);
    await runner.query('CREATE UNIQUE INDEX hosted_profile_layers_scope_uq ON hosted_profile_layers (scope_type, scope_id)');
    await runner.query(`CREATE TABLE hosted_profile_layer_revisions (
      id uuid PRIMARY KEY,
      scope_id text NOT NULL,
      revision integer NOT NULL,
      action text NOT NULL,
      status text NOT NULL,
      fields text NOT NULL,
      reset_fields text NOT NULL,
      provenance text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX hosted_profile_layer_revisions_scope_uq ON hosted_profile_layer_revisions (scope_id, revision)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE hosted_profile_layer_revisions; DROP TABLE hosted_profile_layers');
  }
}
