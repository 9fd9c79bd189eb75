import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing: each payment-provider or marketplace event id is stored once
 * (`billing_events`, so a redelivery changes nothing), and a workspace keeps
 * the provider's customer and subscription, the subscription's last known
 * status and the creation time of the event that set it (`billing_state_at`):
 * an event older than that never overrides a newer state.
 *
 * `welcomed_at`: when the workspace's welcome e-mail was queued, so that it is
 * sent once whichever instance handles the first sign-in.
 */
export class Billing1732450000000 implements MigrationInterface {
  name = 'Billing1732450000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE billing_events (
      source text NOT NULL,
      event_id text NOT NULL,
      kind text NOT NULL,
      tenant_id uuid,
      outcome text NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (source, event_id)
    )`);
    await runner.query(`ALTER TABLE tenants
      ADD COLUMN billing_customer_id text,
      ADD COLUMN billing_subscription_id text,
      ADD COLUMN billing_status text,
      ADD COLUMN billing_state_at timestamptz,
      ADD COLUMN marketplace_account text,
      ADD COLUMN welcomed_at timestamptz`);
    await runner.query('CREATE INDEX tenants_billing_customer_ix ON tenants (billing_customer_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX tenants_billing_customer_ix');
    await runner.query(`ALTER TABLE tenants DROP COLUMN welcomed_at, DROP COLUMN marketplace_account, DROP COLUMN billing_state_at, DROP COLUMN billing_status,
      DROP COLUMN billing_subscription_id, DROP COLUMN billing_customer_id`);
    await runner.query('DROP TABLE billing_events');
  }
}
