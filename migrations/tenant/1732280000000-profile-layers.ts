import { MigrationInterface, QueryRunner } from 'typeorm';
import { dialectOf } from '../dialect-of';

/**
 * Profile layers of a tenant (workspace, user, project, session scopes, and
 * hosted_default when self-hosted), the revision history of hosted_default
 * layers, the profile each session started with, and what the legacy project
 * settings row needs to take part in resolution (which fields are set, why a
 * dial was loosened, a revision).
 */
export class ProfileLayers1732280000000 implements MigrationInterface {
  name = 'ProfileLayers1732280000000';

  async up(runner: QueryRunner): Promise<void> {
    const pg = dialectOf(runner) === 'postgres';
    const id = pg ? 'uuid' : 'varchar(36)';
    const ts = pg ? 'timestamptz' : 'datetime';
    await runner.query(`CREATE TABLE profile_layers (
      id ${id} PRIMARY KEY NOT NULL,
      scope_type text NOT NULL,
      scope_id text NOT NULL,
      project_id ${id} REFERENCES projects(id) ON DELETE CASCADE,
      status text,
      fields text NOT NULL,
      reset_fields text NOT NULL,
      provenance text NOT NULL,
      revision integer NOT NULL,
      created_at ${ts} NOT NULL,
      updated_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX profile_layers_scope_uq ON profile_layers (scope_type, scope_id)');
    await runner.query('CREATE INDEX profile_layers_project_ix ON profile_layers (project_id)');
    await runner.query(`CREATE TABLE profile_layer_revisions (
      id ${id} PRIMARY KEY NOT NULL,
      scope_id text NOT NULL,
      revision integer NOT NULL,
      action text NOT NULL,
      status text NOT NULL,
      fields text NOT NULL,
      reset_fields text NOT NULL,
      provenance text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE UNIQUE INDEX profile_layer_revisions_scope_uq ON profile_layer_revisions (scope_id, revision)');
    await runner.query(`CREATE TABLE profile_session_baselines (
      session_id ${id} PRIMARY KEY NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
      project_id ${id} NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
      generation_key text NOT NULL,
      fields text NOT NULL,
      created_at ${ts} NOT NULL
    )`);
    await runner.query('CREATE INDEX profile_session_baselines_project_ix ON profile_session_baselines (project_id)');
    await runner.query('ALTER TABLE project_settings ADD COLUMN set_fields text');
    await runner.query('ALTER TABLE project_settings ADD COLUMN provenance text');
    await runner.query('ALTER TABLE project_settings ADD COLUMN revision integer NOT NULL DEFAULT 1');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE profile_session_baselines');
    await runner.query('DROP TABLE profile_layer_revisions');
    await runner.query('DROP TABLE profile_layers');
    await runner.query('ALTER TABLE project_settings DROP COLUMN revision');
    await runner.query('ALTER TABLE project_settings DROP COLUMN provenance');
    await runner.query('ALTER TABLE project_settings DROP COLUMN set_fields');
  }
}
