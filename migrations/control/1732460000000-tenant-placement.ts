import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tenant placement: `db_server` names the Postgres server (database) that holds a tenant's
 * schema, by its key (`host:port/database`, never the credentials), when it is one of
 * `SERVICE_TENANT_DB_URLS` other than the control plane's own; null is the control plane's
 * database. `moving_to`: the server `npm run tenant:move` is copying the tenant to, while the
 * move runs.
 */
export class TenantPlacement1732460000000 implements MigrationInterface {
  name = 'TenantPlacement1732460000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE tenants ADD COLUMN db_server text, ADD COLUMN moving_to text');
    await runner.query('CREATE INDEX tenants_db_server_ix ON tenants (db_server)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX tenants_db_server_ix');
    await runner.query('ALTER TABLE tenants DROP COLUMN moving_to, DROP COLUMN db_server');
  }
}
