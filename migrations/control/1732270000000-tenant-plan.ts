import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A hosted tenant's plan (`free` or `paid`) and the address its account
 * notices go to. There is no billing yet: new tenants start on `free` (no
 * push), and the operator sets `paid`; self-hosted instances have no control
 * plane and are treated as paid.
 */
export class TenantPlan1732270000000 implements MigrationInterface {
  name = 'TenantPlan1732270000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`ALTER TABLE tenants ADD COLUMN plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'paid'))`);
    await runner.query('ALTER TABLE tenants ADD COLUMN contact_email text');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE tenants DROP COLUMN contact_email; ALTER TABLE tenants DROP COLUMN plan');
  }
}
